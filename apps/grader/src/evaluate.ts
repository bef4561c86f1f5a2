/**
 * What one submission's files get from a set of test cases, without the database: the format check,
 * the syntax check, then every test case at once, sharing the caller's sandbox slots. The grader runs
 * it for a claimed submission (grade.ts); the API runs it for a precheck, on the visible tests only.
 */
import {
  checkFiles,
  syntaxCheckRequest,
  syntaxProblem,
  type AssignmentFormat,
  type NamedFile,
} from './format.ts';
import type { EvaluationResult, TestCaseSpec } from './evaluation.ts';
import { runTestCase } from './run-test.ts';
import type { Slots } from './semaphore.ts';
import type { PairRunner, SandboxRunner } from './types.ts';

export { Semaphore, type Slots } from './semaphore.ts';
export { HostFailure } from './run-pytest.ts';
export { checkTestFile, type TestFileCheck, type TestFileCheckInput } from './check-test-file.ts';
export type { AssignmentFormat, NamedFile } from './format.ts';
export type { EvaluationResult, TestCaseSpec } from './evaluation.ts';
export type { EvaluationItem } from './pytest-results.ts';
export { BROKEN_CODES } from './pytest-results.ts';

export interface EvaluateInput {
  format: AssignmentFormat;
  files: NamedFile[];
  attachments: NamedFile[];
  tests: TestCaseSpec[];
}

export type Evaluated =
  { kind: 'invalid'; message: string } | { kind: 'graded'; evaluations: EvaluationResult[] };

/**
 * Rejects when the sandbox itself fails (not the student's doing); the first such failure stops the
 * other runs (`local` is aborted), and `signal` stops them all from outside.
 */
export async function evaluateFiles(
  deps: { run: SandboxRunner; runPaired: PairRunner; slots: Slots },
  input: EvaluateInput,
  signal: AbortSignal,
  local: AbortController,
): Promise<Evaluated> {
  const problem = checkFiles(
    input.format,
    input.files,
    input.attachments.map((a) => a.filename),
  );
  if (problem) return { kind: 'invalid', message: problem };

  const syntax = await deps.slots.run(() => deps.run(syntaxCheckRequest(input.files, signal)), signal);
  const syntaxError = syntaxProblem(syntax);
  if (syntaxError) return { kind: 'invalid', message: syntaxError };

  const ctx = {
    run: deps.run,
    runPaired: deps.runPaired,
    slots: deps.slots,
    entryFile: input.format.entryFile,
    submission: input.files,
    attachments: input.attachments,
    signal,
  };
  const evaluations = await Promise.all(
    input.tests.map((test) =>
      runTestCase(ctx, test).catch((error: unknown) => {
        // The first infrastructure failure stops the other runs of this attempt.
        local.abort(error);
        throw error;
      }),
    ),
  );
  return { kind: 'graded', evaluations };
}
