/**
 * Fetch loops over pg-boss queues that survive the database going away (docs/deploy.md, "Faults").
 *
 * pg-boss 10's own `work()` calls `complete()`/`fail()` without awaiting them: when the database is
 * unreachable at that moment the rejection is unhandled and Node ends the process. These loops use
 * pg-boss's fetch, complete and fail calls directly, await every one, and retry the completion with
 * back-off until it is recorded or the jobs expire (pg-boss then hands them out again — every job here
 * is idempotent). Nothing in a loop can reject unobserved.
 */
import type PgBoss from 'pg-boss';

/** The calls of pg-boss a loop uses (a structural type, so tests can pass a fake). */
export interface LoopBoss {
  fetch<T>(
    name: string,
    options: PgBoss.FetchOptions & { includeMetadata: true },
  ): Promise<PgBoss.JobWithMetadata<T>[] | null>;
  complete(name: string, ids: string[]): Promise<unknown>;
  fail(name: string, id: string, data: object): Promise<unknown>;
}

export interface JobLoopOptions {
  batchSize?: number;
  /** Seconds between polls while the queue is empty. */
  pollingIntervalSeconds?: number;
}

export interface JobLoopLog {
  warn(message: string): void;
}

/** Back-off between retries of a completion the database refused: 0.5 s doubling up to 15 s. */
export const RETRY_DELAY_MS = { first: 500, max: 15_000 };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

interface Loop {
  controller: AbortController;
  finished: Promise<void>;
}

/** Starts and stops fetch loops over one pg-boss instance. */
export class JobLoops {
  private readonly loops = new Map<string, Loop>();
  private next = 0;

  constructor(
    private readonly boss: LoopBoss,
    private readonly log: JobLoopLog,
    /** Told of every database error a loop met (the health check remembers the last). */
    private readonly onError: (error: Error) => void = () => {},
    private readonly delays: { first: number; max: number } = RETRY_DELAY_MS,
  ) {}

  /** Starts one loop; returns its id for `stop`. */
  start<T extends object>(
    queue: string,
    handler: (jobs: PgBoss.JobWithMetadata<T>[]) => Promise<void>,
    options: JobLoopOptions = {},
  ): string {
    this.next += 1;
    const id = `${queue}#${this.next}`;
    const controller = new AbortController();
    const finished = this.run(queue, handler, options, controller.signal).finally(() =>
      this.loops.delete(id),
    );
    this.loops.set(id, { controller, finished });
    return id;
  }

  /** Takes no more jobs in this loop; the batch in progress finishes and is recorded on its own. */
  stop(id: string): Promise<void> {
    this.loops.get(id)?.controller.abort();
    return Promise.resolve();
  }

  /** Stops every loop and resolves when their batches in progress are done and recorded. */
  async stopAll(): Promise<void> {
    const loops = [...this.loops.values()];
    for (const loop of loops) loop.controller.abort();
    await Promise.all(loops.map((loop) => loop.finished));
  }

  private report(what: string, error: unknown): void {
    this.onError(error instanceof Error ? error : new Error(String(error)));
    this.log.warn(`${what}: ${messageOf(error)}`);
  }

  private async run<T extends object>(
    queue: string,
    handler: (jobs: PgBoss.JobWithMetadata<T>[]) => Promise<void>,
    options: JobLoopOptions,
    signal: AbortSignal,
  ): Promise<void> {
    const interval = (options.pollingIntervalSeconds ?? 2) * 1000;
    let errorDelay = this.delays.first;
    while (!signal.aborted) {
      let jobs: PgBoss.JobWithMetadata<T>[];
      try {
        // With metadata: handlers read retryCount/retryLimit, and recording reads expireInSeconds.
        jobs =
          (await this.boss.fetch<T>(queue, { batchSize: options.batchSize ?? 1, includeMetadata: true })) ??
          [];
        errorDelay = this.delays.first;
      } catch (error) {
        this.report(`job queue ${queue}: fetching failed; retrying`, error);
        await pause(errorDelay, signal);
        errorDelay = Math.min(errorDelay * 2, this.delays.max);
        continue;
      }
      if (jobs.length === 0) {
        await pause(interval, signal);
        continue;
      }
      let failure: unknown = null;
      try {
        await handler(jobs);
      } catch (error) {
        failure = error;
      }
      await this.record(queue, jobs, failure);
    }
  }

  /**
   * Records the batch's outcome, retrying while the database is away. Gives up once the jobs have
   * expired (pg-boss will offer them again) — so a stop during an outage waits at most that long.
   */
  private async record<T>(queue: string, jobs: PgBoss.JobWithMetadata<T>[], failure: unknown): Promise<void> {
    const ids = jobs.map((job) => job.id);
    const expiresSeconds = Math.max(60, ...jobs.map((job) => job.expireInSeconds));
    const giveUpAt = Date.now() + expiresSeconds * 1000;
    const never = new AbortController().signal;
    let delay = this.delays.first;
    for (;;) {
      try {
        if (failure === null) await this.boss.complete(queue, ids);
        else {
          const data = { message: messageOf(failure) };
          await Promise.all(ids.map((id) => this.boss.fail(queue, id, data)));
        }
        return;
      } catch (error) {
        if (Date.now() + delay > giveUpAt) {
          this.report(
            `job queue ${queue}: could not record ${ids.length} jobs; they will expire and be retried`,
            error,
          );
          return;
        }
        this.report(`job queue ${queue}: recording ${ids.length} jobs failed; retrying`, error);
        await pause(delay, never);
        delay = Math.min(delay * 2, this.delays.max);
      }
    }
  }
}

/**
 * `boss.createQueue` that holds when instances start together: pg-boss's `create_queue` can deadlock
 * with another process creating a queue at the same moment (PostgreSQL then aborts one of them), and
 * the database may be briefly away. An existing queue is not created again.
 */
export async function ensureQueue(
  boss: Pick<PgBoss, 'getQueue' | 'createQueue'>,
  queue: string,
  log: JobLoopLog,
  attempts = 8,
): Promise<void> {
  let delay = 100;
  for (let attempt = 1; ; attempt += 1) {
    try {
      if ((await boss.getQueue(queue)) !== null) return;
      await boss.createQueue(queue);
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      log.warn(`job queue ${queue}: creating it failed (${messageOf(error)}); retrying`);
      // Jittered, so two processes that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
