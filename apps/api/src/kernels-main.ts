// `npm run kernels`: a workbook kernel host of its own, against the same PostgreSQL as the API
// (docs/workbooks.md, "Kernels"). Started as a plain node process (scripts/kernels.mjs) so that SIGTERM
// reaches it: it stops taking kernels, removes its row, finishes the calls under way, ends its kernels.
import { untilTablesExist } from '@kadai/grader/backoff';
import { runService, stopOnSignals } from '@kadai/grader/service';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildKernelHostApp } from './kernel-host-app.ts';

/** A cell runs at most 30 s (and its kernel takes a few to start): the calls under way get that long. */
const SHUTDOWN_GRACE_MS = 45_000;

async function main() {
  const config = loadConfigOrExit();
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

  stopOnSignals(
    SHUTDOWN_GRACE_MS,
    (signal) => app.log.info({ signal }, 'kernel host: shutting down'),
    async () => {
      await app.close();
      await database.close();
    },
  );

  await app.listen({ port: config.KERNEL_HOST_PORT, host: config.HOST });
  app.log.info(
    `kernel host ${app.kernelHost.id} is ready on ${app.kernelHost.url} (${config.WORKBOOK_MAX_KERNELS} kernels)`,
  );
}

runService(main);
