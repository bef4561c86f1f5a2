/**
 * One grading attempt of one submission: claim, load, check the format, run every test case (all at
 * once, sharing the grader's sandbox slots), store. A failure that is not the student's gives the
 * submission back to the queue and throws, so pg-boss retries; the last attempt records InternalError.
 */
import { evaluateFiles, type Evaluated } from './evaluate.ts';
import { whileDatabaseAway } from './backoff.ts';
import type { NamedFile } from './format.ts';
import {
  claimSubmission,
  loadGradingInput,
  markInternalError,
  releaseForRetry,
  storeInvalidFormat,
  storeResults,
} from './repo.ts';
import type { Semaphore } from './semaphore.ts';
import type { GraderLogger, PairRunner, SandboxRunner, SqlClient } from './types.ts';

export interface GradeDeps {
  sql: SqlClient;
  run: SandboxRunner;
  runPaired: PairRunner;
  slots: Semaphore;
  readAttachment(storageKey: string): Promise<Uint8Array>;
  hostId: string;
  log: GraderLogger;
  timeoutSeconds: number;
  staleAfterSeconds: number;
}

/**
 * `skipped`: nothing to do (canceled, already graded, held by a live attempt); `stale`: graded, but a
 * newer attempt, a re-grade or a cancel took the submission meanwhile, so nothing was written.
 */
export type GradeOutcome = 'skipped' | 'completed' | 'invalid' | 'stale' | 'internal_error' | 'retry';

export interface AttemptInfo {
  /** Whether pg-boss will retry this job if it fails. */
  isLastAttempt(attempts: number): boolean;
  signal?: AbortSignal;
}

/** Attempts (claims) after which a failing submission is given up when the job's own count is unknown. */
export const MAX_ATTEMPTS = 4;

export class GradingFailure extends Error {
  constructor(
    message: string,
    readonly submissionId: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function gradeSubmission(
  deps: GradeDeps,
  submissionId: number,
  attempt: AttemptInfo,
): Promise<GradeOutcome> {
  const claim = await claimSubmission(deps.sql.query, submissionId, {
    hostId: deps.hostId,
    timeoutSeconds: deps.timeoutSeconds,
    staleAfterSeconds: deps.staleAfterSeconds,
  });
  if (!claim) return 'skipped';
  // Stop this attempt's sandboxes as soon as one test fails for a reason that is not the student's.
  const local = new AbortController();
  const signal = attempt.signal ? AbortSignal.any([attempt.signal, local.signal]) : local.signal;
  // A result, or the hand-back of an attempt that failed, is held while the database is away and written
  // when it returns (until the attempt's own time is up): dropped, it would leave the submission
  // Executing on a live grader that no longer works on it.
  const hold = <T>(what: string, write: () => Promise<T>) =>
    whileDatabaseAway(`submission ${submissionId}: ${what}`, write, deps.log, {
      maxMs: deps.timeoutSeconds * 1000,
      signal: attempt.signal,
    });
  try {
    const results = await attemptGrading(deps, submissionId, claim.assignmentId, signal, local);
    if (results.kind === 'invalid') {
      return (await hold('storing the result', () =>
        storeInvalidFormat(deps.sql, submissionId, claim.token, results.message),
      ))
        ? 'invalid'
        : 'stale';
    }
    return (await hold('storing the result', () =>
      storeResults(deps.sql, submissionId, claim.token, results.evaluations),
    ))
      ? 'completed'
      : 'stale';
  } catch (error) {
    local.abort(error);
    const reason = describe(error);
    if (attempt.isLastAttempt(claim.attempts)) {
      await hold('giving up', () =>
        markInternalError(
          deps.sql.query,
          submissionId,
          claim.token,
          `Grading failed on the grader, not because of the submission: ${reason}`,
        ),
      );
      deps.log.error(`submission ${submissionId}: grading failed for good: ${reason}`);
      return 'internal_error';
    }
    await hold('handing it back', () =>
      releaseForRetry(
        deps.sql.query,
        submissionId,
        claim.token,
        'Grading was interrupted on the grader; it will be retried shortly.',
      ),
    );
    throw new GradingFailure(`submission ${submissionId}: ${reason}`, submissionId, { cause: error });
  }
}

async function attemptGrading(
  deps: GradeDeps,
  submissionId: number,
  assignmentId: number,
  signal: AbortSignal,
  local: AbortController,
): Promise<Evaluated> {
  const input = await loadGradingInput(deps.sql.query, submissionId, assignmentId);
  if (!input) throw new Error(`assignment ${assignmentId} not found`);
  const attachments: NamedFile[] = await Promise.all(
    input.attachments.map(async (a) => ({
      filename: a.filename,
      content: await deps.readAttachment(a.storageKey),
    })),
  );
  return evaluateFiles(deps, { ...input, attachments }, signal, local);
}
