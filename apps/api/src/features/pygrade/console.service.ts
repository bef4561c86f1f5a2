import {
  SandboxRequestError,
  SandboxUnavailableError,
  runSandboxed,
  storableText,
  type SandboxResult,
} from '@kadai/sandbox';
import {
  SNIPPET_RUNS_PER_MINUTE,
  type GradingJob,
  type PygradeStatus,
  type SnippetRunRequest,
  type SnippetRunResult,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, badRequest, forbidden } from '../../lib/errors.ts';
import type { SandboxProbe } from '../../lib/sandbox-probe.ts';
import * as repo from './console.repo.ts';

/**
 * Snippet runs per user per minute, counted in the database (every instance shares it), and at once in
 * this process (they share this machine's cores with the grader, so that cap stays local).
 */
export const SNIPPET_RATE = { max: SNIPPET_RUNS_PER_MINUTE, windowSeconds: 60 } as const;
export const SNIPPET_CONCURRENCY = 2;

/** The console is for editors (of any course) and staff; students and others get 403. */
export async function requireConsoleUser(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.isStaff || (await repo.isEditorOfAnyCourse(ctx.db, actor.userId))) return;
  throw forbidden('The PyGrade console is for editors and staff.');
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toJob(row: repo.JobRow): GradingJob {
  return {
    submission_id: row.submissionId,
    assignment_title: row.assignmentTitle,
    course_id: row.courseId,
    course_title: row.courseTitle,
    status: row.status,
    queued_at: iso(row.queuedAt),
    started_at: iso(row.startedAt),
    graded_at: iso(row.gradedAt),
    grader_host: row.graderHost,
    score: row.score,
    max_score: row.maxScore,
  };
}

/**
 * The sandbox status of an API process that does not grade (RUN_GRADER=false): grading works when some
 * grader host has beaten recently with a working sandbox; otherwise submissions only wait in the queue.
 */
export function remoteGraderProbe(db: Executor): SandboxProbe {
  return async () => {
    const hosts = await repo.listHosts(db);
    const ready = hosts.filter((h) => h.alive && h.sandboxOk);
    if (ready.length > 0) {
      return { ok: true, detail: `${ready.length} grader host(s) alive with a working sandbox` };
    }
    const alive = hosts.filter((h) => h.alive);
    return {
      ok: false,
      detail:
        alive.length > 0
          ? `no grader host has a working sandbox (${alive[0]!.hostname}: ${alive[0]!.sandboxDetail}); submissions wait in the queue`
          : 'no grader host is running (RUN_GRADER=false here); submissions wait in the queue',
    };
  };
}

export const probeOf = (sandbox?: SandboxProbe): SandboxProbe =>
  sandbox ?? (async () => ({ ok: false, detail: 'no grader in this process' }));

/**
 * `GET Pygrade/status/`: the queue's depth (every course), the jobs running and the last graded ones
 * of the courses the caller edits (staff: all), every grader host, and this process's sandbox.
 */
export async function getStatus(
  ctx: AppContext,
  actor: Actor,
  sandbox: SandboxProbe,
): Promise<PygradeStatus> {
  await requireConsoleUser(ctx, actor);
  const editorId = actor.isStaff ? null : actor.userId;
  const [queueDepth, running, recent, hosts, probe] = await Promise.all([
    repo.countQueued(ctx.db),
    repo.listRunningJobs(ctx.db, editorId),
    repo.listRecentJobs(ctx.db, editorId),
    repo.listHosts(ctx.db),
    sandbox(),
  ]);
  return {
    queue_depth: queueDepth,
    running: running.map(toJob),
    recent: recent.map(toJob),
    hosts: hosts.map((h) => ({
      id: h.id,
      hostname: h.hostname,
      pid: h.pid,
      started_at: h.startedAt.toISOString(),
      last_seen_at: h.lastSeenAt.toISOString(),
      alive: h.alive,
      sandbox_ok: h.sandboxOk,
      sandbox_detail: h.sandboxDetail,
      concurrency: h.concurrency,
      running: h.running,
      graded: h.graded,
    })),
    sandbox: probe,
  };
}

/** The cap on snippets running at once in this process. */
export class SnippetLimiter {
  private active = 0;

  constructor(private readonly concurrency: number = SNIPPET_CONCURRENCY) {}

  /** Takes a slot or throws 429; call the returned function when the run ends. */
  acquire(): () => void {
    if (this.active >= this.concurrency) {
      throw throttled('The sandbox is busy with other snippets; try again in a few seconds.', 2);
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
    };
  }
}

/** The person's rate across all instances: counted and recorded in one transaction (429 past it). */
async function recordWithinRate(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await repo.lockSnippetsOf(tx, userId);
    const recent = await repo.countRecentSnippets(tx, userId, SNIPPET_RATE.windowSeconds);
    if (recent.count >= SNIPPET_RATE.max) {
      const wait = Math.max(1, recent.retryAfterSeconds);
      throw throttled(
        `You have run ${recent.count} snippets in the last minute; try again in ${wait} seconds.`,
        wait,
      );
    }
    await repo.recordSnippet(tx, userId);
  });
}

const throttled = (detail: string, retryAfter: number) =>
  new HttpError(429, 'throttled', detail, undefined, { 'retry-after': String(retryAfter) });

const unavailable = (detail: string) =>
  new HttpError(
    503,
    'sandbox_unavailable',
    `Snippets cannot run here: the sandbox is not available (${detail}). Nothing runs outside the sandbox.`,
  );

export type SnippetRunner = (request: Parameters<typeof runSandboxed>[0]) => Promise<SandboxResult>;

/**
 * `POST Pygrade/run/`: the snippet runs as `main.py` in a fresh sandbox with the default limits (the
 * same as a test case's); without a working sandbox the answer is 503 and nothing runs.
 */
export async function runSnippet(
  ctx: AppContext,
  actor: Actor,
  input: SnippetRunRequest,
  deps: { sandbox: SandboxProbe; limiter: SnippetLimiter; run?: SnippetRunner },
): Promise<SnippetRunResult> {
  await requireConsoleUser(ctx, actor);
  const probe = await deps.sandbox();
  if (!probe.ok) throw unavailable(probe.detail);
  const release = deps.limiter.acquire();
  try {
    await recordWithinRate(ctx, actor.userId);
    const result = await (deps.run ?? runSandboxed)({
      files: [{ path: 'main.py', content: input.code }],
      stdin: input.stdin,
    });
    return {
      exit_code: result.exitCode,
      signal: result.signal,
      time_ms: Math.round(result.timeMs),
      memory_kb: result.memoryKb,
      // NUL and half characters as U+FFFD, as graded output is shown (docs/grading.md, "Output").
      stdout: storableText(result.stdout),
      stderr: storableText(result.stderr),
      limit: result.limit,
    };
  } catch (error) {
    if (error instanceof SandboxUnavailableError) throw unavailable(error.message);
    if (error instanceof SandboxRequestError) throw badRequest(error.message);
    throw error;
  } finally {
    release();
  }
}
