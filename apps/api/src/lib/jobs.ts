import PgBoss from 'pg-boss';
import { isConfigurationError, untilItWorks } from '@kadai/grader/backoff';
import { JobLoops, ensureQueue } from '@kadai/grader/job-loop';
import type { Database } from '../db/client.ts';

export interface JobStatus {
  ok: boolean;
  detail: string;
}

/** The background queue every feature uses; pg-boss underneath, on PGlite or PostgreSQL alike. */
export interface JobQueue {
  status(): JobStatus;
  /** Queues a job; `singletonKey` makes a second send of the same key a no-op while the first waits. */
  send(queue: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * Queues many jobs of one queue in one statement (pg-boss `insert`): 2,000 e-mails are one round
   * trip, not 2,000. A job whose `singletonKey` is already waiting is left out, as `send` would.
   */
  sendMany(queue: string, jobs: { data: object; options?: BulkJobOptions }[]): Promise<void>;
  /**
   * Registers one fetch loop; `options` (batch size, polling interval, job metadata such as
   * `retryCount`) override the queue's defaults. Call again for more loops in parallel. Resolves with
   * the loop's id for `offWork`.
   */
  work<T extends object>(
    queue: string,
    handler: (jobs: PgBoss.Job<T>[]) => Promise<void>,
    options?: PgBoss.WorkOptions,
  ): Promise<string>;
  /** Sends a job to `queue` on a cron schedule (UTC), once per slot however many processes ask. */
  schedule(queue: string, cron: string): Promise<void>;
  /** Stops one fetch loop: it takes no more jobs (a batch in progress finishes). */
  offWork(workerId: string): Promise<void>;
  stop(): Promise<void>;
}

/** What a job of `sendMany` may set: pg-boss's insert takes these (`retryDelay` in seconds). */
export type BulkJobOptions = Pick<
  PgBoss.JobInsert,
  'retryLimit' | 'retryDelay' | 'retryBackoff' | 'startAfter' | 'singletonKey' | 'expireInSeconds'
>;

export interface StartJobsOptions {
  /** Seconds between polls; PGlite has no LISTEN/NOTIFY, so this bounds job latency. */
  pollingIntervalSeconds?: number;
}

/** A queue error older than this no longer makes the queue unhealthy: pg-boss reports failures, not recoveries. */
export const QUEUE_ERROR_MEMORY_MS = 15_000;

/**
 * The queue's health from its last error: down while pg-boss has failed within the last
 * QUEUE_ERROR_MEMORY_MS (its loops poll every few seconds, so an outage keeps it fresh), and healthy
 * again on its own once the errors stop.
 */
export function queueHealth(
  lastError: { message: string; at: number } | null,
  now = Date.now(),
): { ok: boolean; detail: string } {
  if (lastError === null || now - lastError.at > QUEUE_ERROR_MEMORY_MS) {
    return { ok: true, detail: 'pg-boss running' };
  }
  return { ok: false, detail: lastError.message };
}

/** Starts pg-boss over the application's own connection(s), so the embedded database works too. */
export async function startJobQueue(database: Database, options: StartJobsOptions = {}): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.query(text, values) },
    schema: 'pgboss',
    // Maintenance and state monitoring poll the database; keep them rare on the single PGlite connection.
    maintenanceIntervalSeconds: 120,
    monitorStateIntervalSeconds: 300,
  });
  let lastError: { message: string; at: number } | null = null;
  const remember = (error: Error) => {
    lastError = { message: error.message, at: Date.now() };
  };
  boss.on('error', (error) => {
    remember(error);
    console.error('job queue error', error);
  });
  const log = { warn: (message: string) => console.warn(message) };
  // Started before anything else touches the database, so a database away at start-up is waited for.
  await untilItWorks('starting the job queue', () => boss.start(), log, { isFatal: isConfigurationError });
  const loops = new JobLoops(boss, log, remember);
  const created = new Map<string, Promise<void>>();
  const ensure = (queue: string): Promise<void> => {
    let pending = created.get(queue);
    if (!pending) {
      pending = ensureQueue(boss, queue, log);
      created.set(queue, pending);
      // A failure is not remembered: the next call tries again.
      pending.catch(() => created.delete(queue));
    }
    return pending;
  };
  let stopped = false;
  return {
    status: () => (stopped ? { ok: false, detail: 'stopped' } : queueHealth(lastError)),
    async send(queue, data, sendOptions = {}) {
      await ensure(queue);
      return boss.send(queue, data, { retryLimit: 3, retryBackoff: true, ...sendOptions });
    },
    async sendMany(queue, jobs) {
      if (jobs.length === 0) return;
      await ensure(queue);
      await boss.insert(
        jobs.map((job) => ({
          name: queue,
          data: job.data,
          retryLimit: 3,
          retryBackoff: true,
          ...job.options,
        })),
      );
    },
    async work(queue, handler, workOptions = {}) {
      await ensure(queue);
      return loops.start(queue, handler, {
        batchSize: workOptions.batchSize,
        pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? options.pollingIntervalSeconds ?? 2,
      });
    },
    async schedule(queue, cron) {
      await ensure(queue);
      await boss.schedule(queue, cron, {}, { tz: 'UTC', retryLimit: 1 });
    },
    async offWork(workerId) {
      await loops.stop(workerId);
    },
    async stop() {
      stopped = true;
      await loops.stopAll();
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
    },
  };
}

/** A queue that was not started (tests that need no background work); sending is an error. */
export function createStoppedQueue(reason = 'job queue not started'): JobQueue {
  return {
    status: () => ({ ok: false, detail: reason }),
    send: () => Promise.reject(new Error(reason)),
    sendMany: () => Promise.reject(new Error(reason)),
    work: () => Promise.reject(new Error(reason)),
    schedule: () => Promise.reject(new Error(reason)),
    offWork: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
}

/** One queue's backlog: jobs ready to run, jobs due later (retry delays, schedules), the oldest ready one's wait. */
export interface QueueBacklog {
  queue: string;
  waiting: number;
  scheduled: number;
  /** Seconds the oldest job ready to run has waited (0 when none waits). */
  oldestWaitingSeconds: number;
}

/** At most this many queues are reported (Kadai makes about ten): a bound on the metrics' series. */
const MAX_QUEUES = 100;

/**
 * Every pg-boss queue's backlog, for metrics (docs/operations.md). Jobs waiting are those not yet
 * active (`created`, `retry`): pg-boss 10's partial index `job_i5` on `(name, start_after)` holds
 * exactly them, so this reads that index however many finished jobs the table keeps. PostgreSQL ends
 * the query after `timeoutMs`.
 */
export async function readQueueBacklog(database: Database, timeoutMs: number): Promise<QueueBacklog[]> {
  const { rows } = await database.transaction(async (query) => {
    await query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    return query(
      `SELECT q.name AS queue, j.waiting, j.scheduled, j.oldest
         FROM pgboss.queue q
         CROSS JOIN LATERAL (
           SELECT count(*) FILTER (WHERE start_after <= now())::int AS waiting,
                  count(*) FILTER (WHERE start_after > now())::int AS scheduled,
                  COALESCE(EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE start_after <= now())), 0)::float8 AS oldest
             FROM pgboss.job
            WHERE name = q.name AND state < 'active'
         ) j
        ORDER BY q.name
        LIMIT ${MAX_QUEUES}`,
    );
  });
  return rows.map((row) => ({
    queue: String(row.queue),
    waiting: Number(row.waiting),
    scheduled: Number(row.scheduled),
    oldestWaitingSeconds: Math.max(0, Number(row.oldest)),
  }));
}
