import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Health, PublicConfig } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import type { SandboxProbe } from '../../lib/sandbox-probe.ts';
import { VERSION } from '../../version.ts';
import { enabledProviders } from '../identity/providers.service.ts';
import { readSignInSettings } from '../identity/signin-settings.service.ts';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext, sandbox?: SandboxProbe): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Database, job queue and sandbox status',
        description:
          'Always the JSON body: 200 when the database and the queue work (`degraded` without a sandbox), ' +
          '503 when either is down, each part saying why; back to 200 by itself once they recover.',
        security: [],
        response: { 200: Health, 503: Health, 500: ErrorBody },
      },
    },
    async (request, reply) => {
      const database = await ctx.database
        .query('SELECT 1 AS ok')
        .then(() => ({ ok: true, detail: 'reachable' }))
        .catch((error: unknown) => {
          // The driver's message can name hosts and users: it goes to the log, not to anyone who asks.
          request.log.error({ err: error }, 'health check: the database did not answer');
          return { ok: false, detail: 'not reachable (see the server log)' };
        });
      const queue = ctx.jobs.status();
      // The grader hosts' probe reads the database: when that fails, health still answers with its body.
      const sandboxStatus = sandbox
        ? await sandbox().catch((error: unknown) => {
            request.log.error({ err: error }, 'health check: the sandbox status could not be read');
            return { ok: false, detail: 'unknown: the grader hosts could not be read (see the server log)' };
          })
        : { ok: false, detail: 'no grader in this process' };
      const body: Health = {
        status: database.ok && queue.ok && sandboxStatus.ok ? 'ok' : 'degraded',
        version: VERSION,
        database: { ...database, driver: ctx.database.driver },
        queue,
        sandbox: sandboxStatus,
      };
      // 503 when what every request needs is down; a missing sandbox only pauses grading (200, degraded).
      if (!(database.ok && queue.ok)) return reply.code(503).header('retry-after', '5').send(body);
      return reply.code(200).send(body);
    },
  );

  api.get(
    '/Config/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Settings the web app needs before sign-in',
        security: [],
        response: { 200: PublicConfig },
      },
    },
    async () => ({
      product_name: ctx.config.PRODUCT_NAME,
      google_client_id: ctx.config.GOOGLE_CLIENT_ID ?? null,
      google_script_url: ctx.config.GOOGLE_SCRIPT_URL,
      provider_url: ctx.config.PROVIDER_URL,
      self_registration: ctx.config.SELF_REGISTRATION,
      identity_providers: await enabledProviders(ctx),
      password_hidden_domains: (await readSignInSettings(ctx)).password_hidden_domains,
    }),
  );
}
