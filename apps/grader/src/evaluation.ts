/**
 * What every kind of test shares: the test as the grader reads it, its evaluation, the context of one
 * submission's runs, the limits of a run and how a limit or a crash becomes a reason.
 */
import type { Comparison } from './compare.ts';
import type { NamedFile } from './format.ts';
import type { EvaluationItem } from './pytest-results.ts';
import type { Slots } from './semaphore.ts';
import { storedText } from './stored-text.ts';
import type { PairRunner, SandboxFile, SandboxLimits, SandboxResult, SandboxRunner } from './types.ts';

export type WrongReason =
  | 'wrong_answer'
  | 'runtime_error'
  | 'time_limit'
  | 'memory_limit'
  | 'output_limit'
  | 'file_size'
  | 'checker_error'
  | 'collection_error';

export interface TestCaseSpec {
  id: number;
  name: string;
  kind: 'io' | 'script' | 'pytest';
  points: number;
  stdin: string;
  expectedStdout: string;
  comparison: Comparison;
  tolerance: number;
  driver: string;
  checkScript: string;
  testFileName: string;
  testCode: string;
  timeLimitMs: number;
  memoryLimitMb: number;
}

/** A `pytest` test case from what matters to pytest (the other fields are what no pytest run reads). */
export function pytestSpec(
  fields: Pick<TestCaseSpec, 'testFileName' | 'testCode' | 'timeLimitMs' | 'memoryLimitMb'> &
    Partial<TestCaseSpec>,
): TestCaseSpec {
  return {
    id: 0,
    name: fields.testFileName,
    kind: 'pytest',
    points: 0,
    stdin: '',
    expectedStdout: '',
    comparison: 'exact',
    tolerance: 0,
    driver: '',
    checkScript: '',
    ...fields,
  };
}

export interface EvaluationResult {
  testCaseId: number;
  status: 'Correct' | 'Wrong';
  points: number;
  reason: WrongReason | null;
  timeMs: number | null;
  memoryKb: number | null;
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  checkerMessage: string;
  /** A pytest test's collected tests; empty for other kinds. */
  items: EvaluationItem[];
}

export interface RunContext {
  run: SandboxRunner;
  /** Runs a trusted program beside an untrusted worker (a pytest test: harness and submission). */
  runPaired: PairRunner;
  slots: Slots;
  entryFile: string;
  /** The submitted files (also shown to check scripts under /judge/submission). */
  submission: NamedFile[];
  /** The assignment's files, placed beside the submitted ones. */
  attachments: NamedFile[];
  signal?: AbortSignal;
}

export type TestLimits = Pick<SandboxLimits, 'cpuSeconds' | 'wallMs' | 'memoryBytes' | 'outputBytes'>;

export const CHECKER_MESSAGE_CHARS = 4 * 1024;
export const MIB = 1024 * 1024;

/** A test's limits: CPU seconds rounded up, a wall clock of twice the limit plus start-up, memory as set. */
export function limitsFor(test: TestCaseSpec): TestLimits {
  return {
    cpuSeconds: Math.max(1, Math.ceil(test.timeLimitMs / 1000)),
    wallMs: 2 * test.timeLimitMs + 500,
    memoryBytes: test.memoryLimitMb * MIB,
    // Room for the expected output twice over, so a near miss is still compared rather than cut off.
    outputBytes: Math.max(MIB, 2 * Buffer.byteLength(test.expectedStdout) + 4096),
  };
}

/** Why a run failed on its own (a limit, a crash), or null when it ended normally. */
export function runFailure(run: SandboxResult, test: TestCaseSpec): WrongReason | null {
  switch (run.limit) {
    case 'cpu':
    case 'wall':
      return 'time_limit';
    case 'memory':
      return 'memory_limit';
    case 'output':
      return 'output_limit';
    case 'file_size':
      return 'file_size';
    case null:
      break;
  }
  // RLIMIT_CPU is whole seconds; the test's limit is in milliseconds. cpuMs (every process of the run)
  // is measured for every run, io and script; it is null only after a host kill, which `limit` reported.
  if (run.cpuMs !== null && run.cpuMs > test.timeLimitMs) return 'time_limit';
  if (run.stdoutTruncated) return 'output_limit';
  if (run.exitCode !== 0 || run.signal !== null) {
    // Under an address-space limit Python raises MemoryError rather than being killed.
    return /^MemoryError\b/m.test(run.stderr.slice(-2000)) ? 'memory_limit' : 'runtime_error';
  }
  return null;
}

export function evaluation(
  test: TestCaseSpec,
  run: SandboxResult | null,
  verdict: Partial<EvaluationResult>,
) {
  const correct = verdict.status === 'Correct';
  const result: EvaluationResult = {
    testCaseId: test.id,
    status: correct ? 'Correct' : 'Wrong',
    points: correct ? test.points : 0,
    reason: correct ? null : (verdict.reason ?? 'wrong_answer'),
    timeMs: run ? Math.round(run.timeMs) : null,
    memoryKb: run?.memoryKb ?? null,
    exitCode: run?.exitCode ?? null,
    signal: run?.signal ?? null,
    stdout: storedText(run?.stdout ?? ''),
    stderr: storedText(run?.stderr ?? ''),
    checkerMessage: storedText(verdict.checkerMessage ?? '', CHECKER_MESSAGE_CHARS),
    items: verdict.items ?? [],
  };
  if (verdict.points !== undefined) result.points = verdict.points;
  return result;
}

export function sandboxFiles(ctx: RunContext, extra: SandboxFile[] = []): SandboxFile[] {
  return [
    ...ctx.submission.map((f) => ({ path: f.filename, content: f.content })),
    ...ctx.attachments.map((f) => ({ path: f.filename, content: f.content })),
    ...extra,
  ];
}
