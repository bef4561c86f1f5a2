/**
 * The check of a teacher's pytest module when it is saved (issue 35, item 6): the module is collected in
 * the sandbox exactly as grading would, against the assignment's reference solution (or its starter
 * code), so that a file that could never run its tests — a syntax error, a missing helper file, no tests,
 * a module name the submission will not have — is caught before any student runs it. Without a
 * solution, the submission's modules are stand-ins that have every name (the file is then checked for
 * everything but the names it imports).
 */
import { pytestSpec, type RunContext } from './evaluation.ts';
import type { NamedFile } from './format.ts';
import { pytestVerdict, type BrokenReason } from './pytest-results.ts';
import { runPytestFile, studentModules } from './run-pytest.ts';
import type { Slots } from './semaphore.ts';
import type { PairRunner, SandboxRunner } from './types.ts';

export interface TestFileCheckInput {
  testFileName: string;
  testCode: string;
  timeLimitMs: number;
  memoryLimitMb: number;
  /** The assignment's entry file and the other files a submission must have. */
  entryFile: string;
  requiredFiles: string[];
  /** What to collect against: the reference solution, else the starter code (as the entry file). */
  solution: { code: string; from: 'reference' | 'starter' } | null;
  attachments: NamedFile[];
}

export type TestFileCheck =
  | {
      status: 'ready';
      /** Each collected test: its name (pytest's node id without the file) and its shares. */
      tests: { name: string; points: number }[];
      /** All the shares: what the test case's points are when they follow the tests. */
      shares: number;
      against: 'reference' | 'starter' | 'stand-ins';
    }
  | {
      status: 'draft';
      /** Why it does not run, as data for the reader's language; null when only `message` says it. */
      reason: BrokenReason | null;
      /** With a reason, what it leaves out (pytest's or Python's words, often ''); else the explanation. */
      message: string;
      against: 'reference' | 'starter' | 'stand-ins';
    };

/**
 * Collects the module. Throws when the check cannot be made here (no sandbox, no pytest, the host
 * failed every retry): the caller then saves the file unchecked.
 */
export async function checkTestFile(
  deps: { run: SandboxRunner; runPaired: PairRunner; slots: Slots },
  input: TestFileCheckInput,
  signal?: AbortSignal,
): Promise<TestFileCheck> {
  const encoder = new TextEncoder();
  const submission: NamedFile[] = input.solution
    ? [{ filename: input.entryFile, content: encoder.encode(input.solution.code) }]
    : [];
  const stubs = studentModules(
    [input.entryFile, ...input.requiredFiles]
      .filter((name) => !submission.some((f) => f.filename === name))
      .map((filename) => ({ filename })),
    input.testFileName,
  );
  const ctx: RunContext = {
    ...deps,
    entryFile: input.entryFile,
    submission,
    attachments: input.attachments,
    signal,
  };
  const test = pytestSpec(input);
  const against = input.solution?.from ?? 'stand-ins';
  const { report } = await deps.slots.run(() => runPytestFile(ctx, test, { mode: 'collect', stubs }), signal);
  const verdict = pytestVerdict(report, input.testFileName);
  if (verdict.kind === 'broken') {
    const { reason } = verdict;
    return { status: 'draft', reason, message: reason ? verdict.detail : verdict.message, against };
  }
  return {
    status: 'ready',
    tests: verdict.items.map((item) => ({ name: item.name, points: item.max_points })),
    shares: verdict.total,
    against,
  };
}
