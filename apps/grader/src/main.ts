// `npm run grader`: a grading worker on its own host, against the same PostgreSQL as the API.
import pg from 'pg';
import PgBoss from 'pg-boss';
import { createDiskAttachmentReader, storageRoot } from './attachments.ts';
import { GraderEnvError, parseGraderEnv } from './env.ts';
import { createPgSql } from './pg-sql.ts';
import { GRADING_QUEUE } from './queue.ts';
import type { GraderJobQueue, GraderLogger } from './types.ts';
import { startGrader } from './worker.ts';

const stamp = () => new Date().toISOString();
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
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE });
  pool.on('error', (error) => log.error(`database pool: ${error.message}`));
  const { rows } = await pool.query<{ ok: boolean }>(`SELECT to_regclass('grader_hosts') IS NOT NULL AS ok`);
  if (!rows[0]?.ok) {
    // The API owns the schema (it migrates at start-up); a grader never creates tables of its own.
    console.error(
      'The database has no Kadai tables yet: start the API against it once (it migrates), then the graders.',
    );
    process.exit(1);
  }
  const boss = new PgBoss({ connectionString: env.DATABASE_URL, schema: 'pgboss' });
  boss.on('error', (error) => log.error(`job queue: ${error.message}`));
  await boss.start();
  await boss.createQueue(GRADING_QUEUE);
  const jobs: GraderJobQueue = {
    send: (queue, data, options = {}) => boss.send(queue, data, options),
    work: (queue, handler, options = {}) => boss.work(queue, options, handler),
    offWork: (workerId) => boss.offWork({ id: workerId }),
  };
  const heartbeatMs = env.GRADER_HEARTBEAT_SECONDS * 1000;
  const grader = await startGrader({
    sql: createPgSql(pool),
    jobs,
    readAttachment: createDiskAttachmentReader(storageRoot(env)),
    log,
    concurrency: env.GRADER_CONCURRENCY,
    gradingTimeoutSeconds: env.GRADING_TIMEOUT,
    hostId: env.GRADER_ID,
    heartbeatMs,
    sweepMs: heartbeatMs * 2,
    staleAfterMs: heartbeatMs * 4,
  });

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: stopping; running attempts finish or go back to the queue`);
    const timer = setTimeout(() => {
      console.error('shutdown took too long; exiting');
      process.exit(1);
    }, 30_000);
    timer.unref();
    try {
      await grader.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await pool.end();
      process.exit(0);
    } catch (error) {
      console.error('error during shutdown', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
