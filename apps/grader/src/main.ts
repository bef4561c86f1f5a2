// `npm run grader`: a grading worker on its own host, against the same PostgreSQL as the API.
import PgBoss from 'pg-boss';
import { createAttachmentReader } from './attachments.ts';
import { GraderEnvError, parseGraderEnv } from './env.ts';
import { createPgSql, openPool } from './pg-sql.ts';
import { GRADING_QUEUE } from './queue.ts';
import { isConfigurationError, untilItWorks, untilTablesExist } from './backoff.ts';
import { JobLoops, ensureQueue } from './job-loop.ts';
import {
  createGradingMetrics,
  createMetricsRegistry,
  registerPoolGauges,
  serveMetrics,
  type MetricsServer,
} from './metrics.ts';
import { runService, stopOnSignals } from './service.ts';
import type { GraderJobQueue, GraderLogger } from './types.ts';
import { startGrader } from './worker.ts';
import { stopTracing, traceFields } from './tracing.ts';
import { SIMILARITY_QUEUE, startSimilarityWorker } from './similarity/job.ts';

/** The time, and the trace of the work being logged about when it is traced (docs/operations.md). */
const stamp = () => {
  const { trace_id: traceId } = traceFields();
  return traceId ? `${new Date().toISOString()} trace=${traceId}` : new Date().toISOString();
};
const log: GraderLogger = {
  info: (m) => console.log(`${stamp()} ${m}`),
  warn: (m) => console.warn(`${stamp()} WARN ${m}`),
  error: (m) => console.error(`${stamp()} ERROR ${m}`),
};

async function main() {
  let env;
  try {
    env = parseGraderEnv(process.env);
  } catch (error) {
    if (error instanceof GraderEnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const pool = openPool(
    {
      connectionString: env.DATABASE_URL,
      max: env.DATABASE_POOL_SIZE,
      // A server that does not answer is an outage to wait out, not a connect() that hangs forever.
      connectionTimeoutMillis: 10_000,
    },
    (error) => log.error(`database connection: ${error.message}`),
  );
  // pgboss.queue too: the API creates pg-boss's schema right after migrating.
  await untilTablesExist((text) => pool.query(text), ['grader_hosts', 'pgboss.queue'], log);
  const boss = new PgBoss({ connectionString: env.DATABASE_URL, schema: 'pgboss' });
  boss.on('error', (error) => log.error(`job queue: ${error.message}`));
  await untilItWorks('starting the job queue', () => boss.start(), log, { isFatal: isConfigurationError });
  await ensureQueue(boss, GRADING_QUEUE, log);
  await ensureQueue(boss, SIMILARITY_QUEUE, log);
  const loops = new JobLoops(boss, log);
  const jobs: GraderJobQueue = {
    send: (queue, data, options = {}) => boss.send(queue, data, options),
    work: (queue, handler, options = {}) => Promise.resolve(loops.start(queue, handler, options)),
    offWork: (workerId) => loops.stop(workerId),
  };
  const heartbeatMs = env.GRADER_HEARTBEAT_SECONDS * 1000;
  // Metrics only when asked for (GRADER_METRICS_PORT): the grader has no other HTTP server to offer them on.
  const registry = env.GRADER_METRICS_PORT === undefined ? null : createMetricsRegistry();
  if (registry) {
    registerPoolGauges(registry, () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: env.DATABASE_POOL_SIZE,
    }));
  }
  const grader = await startGrader({
    sql: createPgSql(pool),
    jobs,
    readAttachment: createAttachmentReader(env, createPgSql(pool)),
    log,
    concurrency: env.GRADER_CONCURRENCY,
    gradingTimeoutSeconds: env.GRADING_TIMEOUT,
    hostId: env.GRADER_ID,
    heartbeatMs,
    sweepMs: heartbeatMs * 2,
    staleAfterMs: heartbeatMs * 4,
    metrics: registry ? createGradingMetrics(registry) : undefined,
  });
  // Similarity reports are CPU work like grading, so grader hosts take them too (docs/similarity.md).
  const similarity = await startSimilarityWorker({ sql: createPgSql(pool), jobs, log });
  let metricsServer: MetricsServer | null = null;
  if (registry && env.GRADER_METRICS_PORT !== undefined) {
    metricsServer = await serveMetrics({
      registry,
      port: env.GRADER_METRICS_PORT,
      host: env.GRADER_METRICS_HOST,
      token: env.METRICS_TOKEN,
      log,
    });
    log.info(`metrics on http://${env.GRADER_METRICS_HOST}:${metricsServer.port}/metrics`);
  }

  stopOnSignals(
    30_000,
    (signal) => log.info(`${signal}: stopping; running attempts finish or go back to the queue`),
    async () => {
      await grader.stop();
      await similarity.stop();
      await metricsServer?.close();
      await loops.stopAll();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await pool.end();
      await stopTracing();
    },
  );
}

runService(main, (message) => log.error(message));
