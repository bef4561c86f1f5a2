import { startGrader, type Grader } from '@kadai/grader/worker';
import { startSimilarityWorker, type SimilarityWorker } from '@kadai/grader/similarity-job';
import { isConfigurationError, untilItWorks } from '@kadai/grader/backoff';
import { runService, stopOnSignals } from '@kadai/grader/service';
import { createGradingMetrics } from '@kadai/grader/metrics';
import { stopTracing } from '@kadai/grader/tracing';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { seedDemoData } from './demo/seed.ts';
import { startJobQueue } from './lib/jobs.ts';
import { createStorage, startStorageHousekeeping } from './lib/storage.ts';
import { buildApp } from './app.ts';
import { startAuthHousekeeping } from './features/auth/housekeeping.ts';
import { declareEnvProviders } from './features/identity/env-providers.ts';
import { startForumJobs } from './features/forum/publish.ts';
import { startForumFileHousekeeping } from './features/forum/files.service.ts';
import { startVideoJobs } from './features/videos/sync.service.ts';
import { startWorkbookJobs } from './features/workbooks/sessions.service.ts';
import { startMailJobs } from './features/mail/mail.jobs.ts';
import { startNotificationMailJobs } from './features/notifications/mail-jobs.ts';
import { startReminderJobs } from './features/notifications/reminders.service.ts';
import { startLtiJobs } from './features/lti/lti.jobs.ts';
import { startPrivacyJobs } from './features/privacy/export.service.ts';
import { remoteGraderProbe } from './features/pygrade/console.service.ts';

/** How long a SIGTERM may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 35_000;

async function main() {
  const config = loadConfigOrExit();

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  // A database away at start-up (or starting beside this process) is waited for, never a reason to exit.
  const startLog = { warn: (message: string) => console.warn(message) };
  await untilItWorks('migrating the database', () => migrateDatabase(database), startLog, {
    isFatal: isConfigurationError,
  });
  const jobs = await startJobQueue(database);
  const storage = createStorage(config, database);
  // In the embedded default this process is also the grader; with RUN_GRADER=false, grader hosts do it.
  let grader: Grader | null = null;
  let similarity: SimilarityWorker | null = null;
  const sandbox = config.RUN_GRADER
    ? async () => grader?.sandbox ?? { ok: false, detail: 'the grader is starting' }
    : remoteGraderProbe(database.db);
  const app = await buildApp({ config, database, jobs, storage, sandbox });
  if (config.RUN_GRADER) {
    grader = await startGrader({
      sql: database,
      jobs,
      readAttachment: (key) => storage.read(key),
      log: app.log,
      concurrency: config.GRADER_CONCURRENCY,
      gradingTimeoutSeconds: config.GRADING_TIMEOUT,
      // The grader in this process counts on the app's /metrics.
      metrics: app.metrics ? createGradingMetrics(app.metrics) : undefined,
    });
    // The embedded grader also compares submissions for similarity reports (docs/similarity.md).
    similarity = await startSimilarityWorker({ sql: database, jobs, log: app.log });
  }
  // The background jobs work with the app's own context (its session cache included).
  const ctx = app.appContext;
  await startAuthHousekeeping(ctx);
  await declareEnvProviders(ctx);
  await startForumJobs(ctx);
  await startForumFileHousekeeping(ctx);
  await startStorageHousekeeping(ctx);
  await startVideoJobs(ctx);
  await startWorkbookJobs(ctx);
  const mail = await startMailJobs(ctx);
  const notificationMail = await startNotificationMailJobs(ctx);
  await startReminderJobs(ctx);
  await startLtiJobs(ctx);
  await startPrivacyJobs(ctx);
  if (config.SEED_DEMO) {
    const seeded = await seedDemoData(ctx);
    if (seeded) app.log.info('seeded the two demo courses and their accounts (see README)');
  }

  // Stop taking requests first, then let running jobs finish, then close the database. A workbook
  // cell runs up to 30 s: the grace covers one (a supervisor should allow 40 s, docs/deploy.md).
  stopOnSignals(
    SHUTDOWN_GRACE_MS,
    (signal) => app.log.info({ signal }, 'shutting down'),
    async () => {
      await app.close();
      await notificationMail.stop();
      await grader?.stop();
      await similarity?.stop();
      await jobs.stop();
      mail.close();
      await database.close();
      // The spans still buffered go to the collector before the process ends.
      await stopTracing();
    },
  );

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`${config.PRODUCT_NAME} is ready on ${config.publicUrl} (database: ${database.driver})`);
}

runService(main);
