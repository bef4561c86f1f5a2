// `npm run kernels`: a workbook kernel host of its own, against the same PostgreSQL as the API
// (docs/workbooks.md, "Kernels"). Started as a plain node process (scripts/kernels.mjs) so that SIGTERM
// reaches it: it stops taking kernels, removes its row, finishes the calls under way, ends its kernels.
import { untilTablesExist } from '@kadai/grader/backoff';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildKernelHostApp } from './kernel-host-app.ts';

/** A cell runs at most 30 s (and its kernel takes a few to start): the calls under way get that long. */
const SHUTDOWN_GRACE_MS = 45_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!config.DATABASE_URL) {
    // The embedded database lives inside one process: a kernel host needs the cluster's PostgreSQL.
    console.error('npm run kernels needs DATABASE_URL: the PostgreSQL server the API instances use.');
    process.exit(1);
  }
  if (config.WORKBOOK_MAX_KERNELS === 0) {
    console.error('npm run kernels with WORKBOOK_MAX_KERNELS=0 would run no kernel; set it above 0.');
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, poolSize: 4 });
  await untilTablesExist((text) => database.query(text), ['kernel_hosts'], {
    warn: (message) => console.warn(message),
  });
  const app = await buildKernelHostApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'kernel host: shutting down');
    const timer = setTimeout(() => {
      console.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error('error during shutdown', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.KERNEL_HOST_PORT, host: config.HOST });
  app.log.info(
    `kernel host ${app.kernelHost.id} is ready on ${app.kernelHost.url} (${config.WORKBOOK_MAX_KERNELS} kernels)`,
  );
}

// A rejection nobody awaited is logged, never allowed to end the process and every kernel in it.
process.on('unhandledRejection', (reason) => {
  console.error('BUG unhandled rejection', reason);
});

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
