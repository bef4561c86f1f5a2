/**
 * The grading worker: in the API process by default, or alone through `npm run grader`. It takes
 * grading jobs from pg-boss only when the sandbox works — nothing ever runs unsandboxed — and keeps
 * a heartbeat so other graders can pick up its work if it dies.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { probeSandbox, runPaired, runSandboxed } from '@kadai/sandbox';
import { pytestStatus } from './pytest-check.ts';
import { GRADING_QUEUE, type GradingJobData } from './queue.ts';
import { Semaphore } from './semaphore.ts';
import { untilItWorks } from './backoff.ts';
import { MAX_ATTEMPTS, gradeSubmission, type GradeDeps, type GradeOutcome } from './grade.ts';
import { measurePaired, measureSandbox, type GradingMetrics } from './metrics.ts';
import { inSpanFrom, traceSandbox } from './tracing.ts';
import {
  beat,
  clearWaitingForSandbox,
  findUnqueued,
  forgetLongDeadHosts,
  markWaitingForSandbox,
  removeHost,
  retireNamesakes,
  requeueAbandoned,
} from './hosts.ts';
import type {
  GraderJobQueue,
  GraderLogger,
  GradingJob,
  PairRunner,
  SandboxRunner,
  SandboxStatus,
  SqlClient,
} from './types.ts';

export type { GraderLogger, SandboxStatus } from './types.ts';

export interface GraderOptions {
  sql: SqlClient;
  jobs: GraderJobQueue;
  /** The bytes of an assignment file by its storage key. */
  readAttachment(storageKey: string): Promise<Uint8Array>;
  log: GraderLogger;
  /** Sandbox runs at once, across every submission being graded; 0 = one per core. */
  concurrency?: number;
  /** An attempt running longer is aborted and retried (GRADING_TIMEOUT). */
  gradingTimeoutSeconds?: number;
  /**
   * The configured name (GRADER_ID), one process at a time. Each process is its own incarnation,
   * `name:pid:random` (default name: the hostname), in `grader_hosts` and `submissions.grader_host`.
   */
  hostId?: string;
  runSandboxed?: SandboxRunner;
  runPaired?: PairRunner;
  probeSandbox?: () => Promise<SandboxStatus>;
  heartbeatMs?: number;
  sweepMs?: number;
  /** A host silent this long is dead and its submissions are queued again. */
  staleAfterMs?: number;
  /** A Scheduled submission with no job after this long gets a new one. */
  resendAfterMs?: number;
  /** pg-boss fetching: parallel fetch loops, jobs per fetch, idle polling interval. */
  workers?: number;
  batchSize?: number;
  pollingIntervalSeconds?: number;
  /** The pg-boss schema (to see which submissions have a job). */
  bossSchema?: string;
  /** Called after every attempt (tests and the benchmark watch the pipeline through it). */
  onOutcome?: (submissionId: number, outcome: GradeOutcome) => void;
  /** Where attempts and sandbox runs are counted (`createGradingMetrics` of metrics.ts); none by default. */
  metrics?: GradingMetrics;
}

export interface GraderStatus {
  id: string;
  sandbox: SandboxStatus;
  concurrency: number;
  running: number;
  graded: number;
}

export interface Grader {
  readonly id: string;
  /** The sandbox as last probed (the health check reports it). */
  readonly sandbox: SandboxStatus;
  status(): GraderStatus;
  /** Stops taking work, lets running attempts finish (or gives them back), removes the heartbeat row. */
  stop(): Promise<void>;
  /** Tests only: behave like a process killed with -9 — stop beating and sweeping, clean nothing up. */
  simulateCrash(): void;
}

const STOP_GRACE_MS = 10_000;

export async function startGrader(options: GraderOptions): Promise<Grader> {
  const { sql, jobs, log } = options;
  const concurrency = options.concurrency || os.availableParallelism();
  const timeoutSeconds = options.gradingTimeoutSeconds ?? 300;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const sweepMs = options.sweepMs ?? 10_000;
  const staleAfterSeconds = (options.staleAfterMs ?? 20_000) / 1000;
  const resendAfterSeconds = (options.resendAfterMs ?? 60_000) / 1000;
  const probeOnly = options.probeSandbox ?? probeSandbox;
  // The sandbox's detail also says whether pytest test cases can run on this host.
  const probe = async (): Promise<SandboxStatus> => {
    const status = await probeOnly();
    return status.ok ? { ...status, detail: `${status.detail}; ${await pytestStatus()}` } : status;
  };
  const name = options.hostId ?? null;
  const id = `${name ?? os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const slots = new Semaphore(concurrency);
  const stopController = new AbortController();

  let sandbox = await probe();
  let working = false;
  let stopping = false;
  let crashed = false;
  let running = 0;
  let graded = 0;
  const inFlight = new Set<Promise<unknown>>();
  const workerIds: string[] = [];

  const { metrics } = options;
  const run = options.runSandboxed ?? runSandboxed;
  const pair = options.runPaired ?? runPaired;
  const deps: GradeDeps = {
    sql,
    run: traceSandbox(metrics ? measureSandbox(run, metrics) : run),
    runPaired: traceSandbox(metrics ? measurePaired(pair, metrics) : pair),
    slots,
    readAttachment: options.readAttachment,
    hostId: id,
    log,
    timeoutSeconds,
    staleAfterSeconds,
  };

  const host = () => ({
    id,
    name,
    hostname: os.hostname(),
    pid: process.pid,
    sandboxOk: sandbox.ok,
    sandboxDetail: sandbox.detail,
    concurrency,
    running,
    graded,
  });

  const sendJob = (submissionId: number) => {
    const data: GradingJobData = { submissionId };
    return jobs.send(GRADING_QUEUE, data, { expireInSeconds: timeoutSeconds, retryLimit: 3, retryDelay: 5 });
  };

  /** One job, in a span that continues the trace of the request that queued it. */
  function gradeOne(job: GradingJob): Promise<void> {
    return inSpanFrom(
      'grade submission',
      job.data.trace,
      { 'kadai.submission_id': job.data.submissionId, 'kadai.grader_id': id },
      () => gradeJob(job),
    );
  }

  async function gradeJob(job: GradingJob): Promise<void> {
    const submissionId = job.data.submissionId;
    if (stopping || crashed) throw new Error('grader stopping; the job is retried');
    // The sandbox broke since this grader started: leave the submission queued rather than fail it.
    if (!sandbox.ok) throw new Error(`sandbox unavailable; the job is retried: ${sandbox.detail}`);
    running += 1;
    const ended = metrics?.attemptStarted();
    const attempt = gradeSubmission(deps, submissionId, {
      isLastAttempt: (attempts) =>
        job.retryCount !== undefined && job.retryLimit !== undefined
          ? job.retryCount >= job.retryLimit
          : attempts >= MAX_ATTEMPTS,
      signal: AbortSignal.any([stopController.signal, AbortSignal.timeout(timeoutSeconds * 1000)]),
    });
    inFlight.add(attempt);
    try {
      const outcome = await attempt;
      if (outcome !== 'skipped') graded += 1;
      if (outcome === 'stale')
        log.info(`submission ${submissionId}: a newer attempt owns it; result discarded`);
      ended?.(outcome);
      options.onOutcome?.(submissionId, outcome);
    } catch (error) {
      ended?.('retry');
      options.onOutcome?.(submissionId, 'retry');
      throw error;
    } finally {
      inFlight.delete(attempt);
      running -= 1;
    }
  }

  /** Grades a batch; if any attempt must be retried the batch fails (the others are no-ops on retry). */
  async function handle(batch: GradingJob[]): Promise<void> {
    const results = await Promise.allSettled(batch.map((job) => gradeOne(job)));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const failure of failures) log.warn(`grading will be retried: ${String(failure.reason)}`);
    if (failures.length > 0)
      throw new AggregateError(
        failures.map((f) => f.reason),
        'grading failed',
      );
  }

  async function startWorking(): Promise<void> {
    if (working || stopping || crashed) return;
    await clearWaitingForSandbox(sql.query);
    working = true;
    const workerCount = options.workers ?? 2;
    const batchSize = options.batchSize ?? Math.max(2, concurrency * 2);
    for (let i = 0; i < workerCount; i += 1) {
      const workerId = await jobs.work(GRADING_QUEUE, handle, {
        batchSize,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
        includeMetadata: true,
      });
      workerIds.push(workerId);
    }
  }

  /** Takes no more jobs (a batch in progress finishes); they stay queued for other graders. */
  async function stopWorking(): Promise<void> {
    working = false;
    for (const workerId of workerIds.splice(0)) await jobs.offWork(workerId).catch(() => {});
  }

  /** A timer's task: never two at once (a slow database must not pile them up), errors logged. */
  const guard = (what: string, fn: () => Promise<void>) => {
    let busy = false;
    return async () => {
      if (stopping || crashed || busy) return;
      busy = true;
      try {
        await fn();
      } catch (error) {
        log.warn(`grader ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        busy = false;
      }
    };
  };

  const heartbeat = guard('heartbeat', () => beat(sql.query, host()));

  const sweep = guard('sweep', async () => {
    // Bubblewrap may have been installed (or removed) since the last look; the probe caches for a minute.
    const wasOk = sandbox.ok;
    sandbox = await probe();
    if (sandbox.ok !== wasOk) {
      log.warn(`grader ${id}: sandbox ${sandbox.ok ? 'now available' : 'lost'}: ${sandbox.detail}`);
      await beat(sql.query, host());
    }
    if (sandbox.ok) {
      await startWorking();
    } else {
      await stopWorking();
      await markWaitingForSandbox(sql.query, staleAfterSeconds);
    }
    for (const submissionId of await requeueAbandoned(sql.query, staleAfterSeconds, timeoutSeconds)) {
      log.warn(`submission ${submissionId}: its grader stopped beating; queued again`);
      await sendJob(submissionId);
    }
    const unqueued = await findUnqueued(sql.query, {
      waitedSeconds: resendAfterSeconds,
      queue: GRADING_QUEUE,
      bossSchema: options.bossSchema ?? 'pgboss',
    });
    for (const submissionId of unqueued) await sendJob(submissionId);
    if (unqueued.length > 0) log.warn(`re-sent grading jobs for ${unqueued.length} queued submissions`);
    await forgetLongDeadHosts(sql.query);
  });

  // The row exists before any claim, so no sweep ever mistakes this grader's work for a dead host's.
  // A database that is away at start-up is waited for, never a reason to exit.
  await untilItWorks(
    `grader ${id}: start-up`,
    async () => {
      await beat(sql.query, host());
      const retired = await retireNamesakes(sql.query, host());
      if (retired > 0) log.warn(`grader ${id}: took over from ${retired} earlier process(es) named ${name}`);
      if (sandbox.ok) {
        await startWorking();
        log.info(`grader ${id} ready: ${concurrency} sandbox slots (${sandbox.detail})`);
      } else {
        await markWaitingForSandbox(sql.query, staleAfterSeconds);
        log.warn(`grader ${id} idle, taking no work: ${sandbox.detail}`);
      }
    },
    log,
    { delays: { first: Math.min(1000, heartbeatMs), max: 30_000 } },
  );
  const heartbeatTimer = setInterval(() => void heartbeat(), heartbeatMs);
  const sweepTimer = setInterval(() => void sweep(), sweepMs);
  heartbeatTimer.unref();
  sweepTimer.unref();

  return {
    id,
    get sandbox() {
      return sandbox;
    },
    status: () => ({ id, sandbox, concurrency, running, graded }),
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(heartbeatTimer);
      clearInterval(sweepTimer);
      await stopWorking();
      if (inFlight.size > 0) {
        const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
        // Whatever is still running is given back to the queue for another grader.
        stopController.abort(new Error('grader stopped'));
        await Promise.allSettled([...inFlight]);
      }
      if (!crashed) await removeHost(sql.query, id).catch(() => {});
    },
    simulateCrash() {
      crashed = true;
      clearInterval(heartbeatTimer);
      clearInterval(sweepTimer);
    },
  };
}
