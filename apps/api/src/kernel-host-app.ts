import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { HttpError } from './lib/errors.ts';
import { closeGracefully } from './lib/graceful-close.ts';
import { countRequests, registerGauges, serveMetrics } from './lib/metrics.ts';
import { registerInternalKernelRoutes } from './features/workbooks/internal.routes.ts';
import { attachKernelHost } from './features/workbooks/kernel-host.ts';
import type { KernelPool } from './features/workbooks/kernels.ts';

/**
 * `npm run kernels`: a kernel host and nothing else (docs/workbooks.md, "Kernels"). It serves only the
 * signed internal kernel endpoints the API instances forward a session's calls to: no public API, no
 * web app, no jobs.
 */
export async function buildKernelHostApp(options: {
  config: Config;
  database: Database;
  kernels?: KernelPool;
  logger?: boolean;
}): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.LOG_LEVEL },
    // Kernel calls come from the API instances only; a client's proxies never stand in between.
    trustProxy: false,
    // closeGracefully answers what arrives while closing, in full; Fastify's own 503 would not.
    return503OnClosing: false,
  });
  closeGracefully(app);
  const metrics = countRequests(app, config.METRICS_TOKEN);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ detail: error.message, code: error.code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return reply.code(status).send({ detail: error.message, code: 'bad_request' });
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error.', code: 'internal_error' });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ detail: 'Not found.', code: 'not_found' }),
  );
  const host = attachKernelHost(
    app,
    { config, db: database.db, log: app.log },
    { kind: 'kernels', port: config.KERNEL_HOST_PORT, pool: options.kernels },
  );
  registerInternalKernelRoutes(app, host);
  serveMetrics(app, config.METRICS_TOKEN);
  if (metrics) {
    registerGauges(metrics, {
      log: app.log,
      pool: () => database.poolStats(),
      kernels: () => ({ running: host.pool.size, max: host.pool.max }),
    });
  }
  return app;
}
