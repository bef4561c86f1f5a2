/**
 * `POST Submission/Precheck/`: a student runs their code against the assignment's visible test cases
 * before submitting (CodeRunner's "precheck"). The same checks as Submit (membership, dates, files),
 * its own rate limit, the grader's own code for the runs (`@kadai/grader/evaluate`) in this process's
 * sandbox, and nothing stored but the moment, for the rate limit.
 */
import {
  evaluateFiles,
  HostFailure,
  type EvaluationResult,
  type NamedFile,
  type TestCaseSpec,
} from '@kadai/grader/evaluate';
import { runPaired, runSandboxed, SandboxRequestError, SandboxUnavailableError } from '@kadai/sandbox';
import type { PrecheckRequest, PrecheckResult, PrecheckTest } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, badRequest } from '../../lib/errors.ts';
import { attachmentSources } from '../assignments/files.service.ts';
import { visibleTestCases, type TestCaseRow } from '../assignments/test-cases.service.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { checkAddedFiles, checkComplete, decodeSubmission } from './file-rules.ts';
import { testRunSlots } from '../../lib/test-runs.ts';
import * as repo from './precheck.repo.ts';
import { lockSubmitter } from './submissions.repo.ts';
import { assertOpen, findTarget } from './submit.service.ts';

/** At most this many prechecks per person and assignment within the window (429 beyond). */
export const PRECHECK_RATE = { max: 6, windowSeconds: 60 } as const;
/** Prechecks wait for one of the API process's test-run slots (lib/test-runs.ts) unless this many already
 * wait: then 503 with Retry-After. */
export const PRECHECK_MAX_WAITING = 24;
/**
 * Prechecks one person may have in progress at once in one API process, across assignments (429
 * beyond): with the slots shared out fairly (lib/test-runs.ts), one person's burst never crowds out the
 * rest.
 */
export const PRECHECK_PER_PERSON = 2;
const inProgress = new Map<number, number>();
/** A precheck gives up (503) after this long, whatever is still running. */
const PRECHECK_TIMEOUT_MS = 120_000;

const slots = testRunSlots;
const tooMany = () =>
  new HttpError(
    429,
    'precheck_in_progress',
    `You already have ${PRECHECK_PER_PERSON} test runs in progress; wait for them to finish.`,
    undefined,
    { 'retry-after': '5' },
  );

const busy = () =>
  new HttpError(503, 'busy', 'Too many test runs are waiting; try again in a few seconds.', undefined, {
    'retry-after': '5',
  });
const unavailable = (detail: string) =>
  new HttpError(
    503,
    'sandbox_unavailable',
    `Tests cannot run here now: the sandbox is not available (${detail}). Nothing runs outside the sandbox.`,
  );

function specOf(row: TestCaseRow): TestCaseSpec {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    points: row.points,
    stdin: row.stdin,
    expectedStdout: row.expectedStdout,
    comparison: row.comparison,
    tolerance: row.tolerance,
    driver: row.driver,
    checkScript: row.checkScript,
    testFileName: row.testFileName,
    testCode: row.testCode,
    timeLimitMs: row.timeLimitMs,
    memoryLimitMb: row.memoryLimitMb,
  };
}

function toPrecheckTest(row: TestCaseRow, result: EvaluationResult): PrecheckTest {
  return {
    test_case_id: row.id,
    test_case_name: row.name,
    position: row.position,
    status: result.status,
    points: result.points,
    max_points: row.points,
    reason: result.reason,
    time_ms: result.timeMs,
    memory_kb: result.memoryKb,
    stdin: row.stdin,
    expected_stdout: row.expectedStdout,
    stdout: result.stdout,
    stderr: result.stderr,
    exit_code: result.exitCode,
    signal: result.signal,
    checker_message: result.checkerMessage,
    items: result.items,
  };
}

async function assertRate(ctx: AppContext, key: { assignmentId: number; userId: number }) {
  const recent = await repo.countRecentPrechecks(ctx.db, key, PRECHECK_RATE.windowSeconds);
  if (recent.count < PRECHECK_RATE.max) return;
  const wait = Math.max(1, recent.retryAfterSeconds);
  throw new HttpError(
    429,
    'throttled',
    `You have run the tests ${recent.count} times in the last minute; try again in ${wait} seconds.`,
    undefined,
    { 'retry-after': String(wait) },
  );
}

export async function precheck(
  ctx: AppContext,
  actor: Actor,
  body: PrecheckRequest,
): Promise<PrecheckResult> {
  const held = inProgress.get(actor.userId) ?? 0;
  if (held >= PRECHECK_PER_PERSON) throw tooMany();
  inProgress.set(actor.userId, held + 1);
  try {
    return await runPrecheck(ctx, actor, body);
  } finally {
    const left = (inProgress.get(actor.userId) ?? 1) - 1;
    if (left > 0) inProgress.set(actor.userId, left);
    else inProgress.delete(actor.userId);
  }
}

async function runPrecheck(ctx: AppContext, actor: Actor, body: PrecheckRequest): Promise<PrecheckResult> {
  const now = new Date();
  const key = { assignmentId: body.assignment_id, userId: actor.userId };
  const prepared = await ctx.db.transaction(async (tx) => {
    await getCourseRole(tx, actor, body.course_id);
    const target = await findTarget(tx, actor, body.assignment_id, body.course_id);
    assertOpen(target, now);
    const files = decodeSubmission(body, target.rules.entryFile);
    checkAddedFiles(
      target.rules,
      [],
      files.map((f) => ({ filename: f.filename, size: f.content.length })),
    );
    checkComplete(
      target.rules,
      files.map((f) => f.filename),
    );
    // Held until commit: parallel prechecks count one after the other.
    await lockSubmitter(tx, key);
    await assertRate({ ...ctx, db: tx }, key);
    const { visible, notRun } = await visibleTestCases(tx, body.assignment_id);
    const sources = await attachmentSources(tx, body.assignment_id);
    await repo.recordPrecheck(tx, key);
    return { target, files, visible, notRun, sources };
  });
  if (prepared.visible.length === 0) {
    throw badRequest('This assignment has no visible tests to run.', undefined, 'no_test_cases');
  }
  if (slots.queued >= PRECHECK_MAX_WAITING) throw busy();

  const attachments: NamedFile[] = await Promise.all(
    prepared.sources.map(async (s) => ({
      filename: s.filename,
      content: await ctx.storage.read(s.storageKey),
    })),
  );
  const local = new AbortController();
  const signal = AbortSignal.any([local.signal, AbortSignal.timeout(PRECHECK_TIMEOUT_MS)]);
  try {
    const evaluated = await evaluateFiles(
      { run: runSandboxed, runPaired, slots: slots.forOwner(actor.userId) },
      {
        format: prepared.target.rules,
        files: prepared.files,
        attachments,
        tests: prepared.visible.map(specOf),
      },
      signal,
      local,
    );
    const maxScore = prepared.visible.reduce((sum, row) => sum + row.points, 0);
    if (evaluated.kind === 'invalid') {
      return {
        status: 'InvalidFormat',
        message: evaluated.message,
        score: 0,
        max_score: maxScore,
        not_run: prepared.notRun,
        tests: [],
      };
    }
    const tests = evaluated.evaluations.map((result, index) =>
      toPrecheckTest(prepared.visible[index]!, result),
    );
    return {
      status: 'Completed',
      message: '',
      score: tests.reduce((sum, t) => sum + t.points, 0),
      max_score: maxScore,
      not_run: prepared.notRun,
      tests,
    };
  } catch (error) {
    if (error instanceof SandboxUnavailableError) throw unavailable(error.message);
    if (error instanceof SandboxRequestError) throw badRequest(error.message);
    if (signal.aborted && !(error instanceof HttpError)) throw busy();
    // The host spoiled the run (every retry of it): not the student's, and not an answer to give.
    if (error instanceof HostFailure) throw busy();
    throw error;
  }
}
