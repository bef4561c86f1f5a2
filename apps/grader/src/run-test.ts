/**
 * Runs one test case of one submission: each run in a fresh sandbox, judged outside it. `io` tests
 * compare stdout in the grader; `script` tests hand what the program did to the instructor's check
 * script, in a second sandbox the student's code never enters.
 */
import { compareOutput, type Comparison } from './compare.ts';
import { DRIVER_FILE, type NamedFile } from './format.ts';
import { judgeFiles } from './judge-files.ts';
import { pytestArgv } from './pytest-harness.ts';
import { pytestVerdict, readChannel, scaledPoints, type EvaluationItem } from './pytest-results.ts';
import { CHECKER_ARGV, driverArgv, programArgv } from './python.ts';
import type { Semaphore } from './semaphore.ts';
import { storedText } from './stored-text.ts';
import type { SandboxFile, SandboxLimits, SandboxResult, SandboxRunner } from './types.ts';

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
  slots: Semaphore;
  entryFile: string;
  /** The submitted files (also shown to check scripts under /judge/submission). */
  submission: NamedFile[];
  /** The assignment's files, placed beside the submitted ones. */
  attachments: NamedFile[];
  signal?: AbortSignal;
}

export type TestLimits = Pick<SandboxLimits, 'cpuSeconds' | 'wallMs' | 'memoryBytes' | 'outputBytes'>;

const CHECKER_MESSAGE_CHARS = 4 * 1024;
const MIB = 1024 * 1024;

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

function evaluation(test: TestCaseSpec, run: SandboxResult | null, verdict: Partial<EvaluationResult>) {
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

function sandboxFiles(ctx: RunContext, extra: SandboxFile[] = []): SandboxFile[] {
  return [
    ...ctx.submission.map((f) => ({ path: f.filename, content: f.content })),
    ...ctx.attachments.map((f) => ({ path: f.filename, content: f.content })),
    ...extra,
  ];
}

export async function runTestCase(ctx: RunContext, test: TestCaseSpec): Promise<EvaluationResult> {
  const runners = { io: runIoTest, script: runScriptTest, pytest: runPytestTest };
  return ctx.slots.run(() => runners[test.kind](ctx, test), ctx.signal);
}

async function runIoTest(ctx: RunContext, test: TestCaseSpec): Promise<EvaluationResult> {
  const run = await ctx.run({
    files: sandboxFiles(ctx),
    argv: programArgv(ctx.entryFile),
    stdin: test.stdin,
    limits: limitsFor(test),
    writable: true,
    signal: ctx.signal,
  });
  const failure = runFailure(run, test);
  if (failure) return evaluation(test, run, { status: 'Wrong', reason: failure });
  const compared = compareOutput(test.comparison, test.expectedStdout, run.stdout, test.tolerance);
  return compared.equal
    ? evaluation(test, run, { status: 'Correct' })
    : evaluation(test, run, { status: 'Wrong', reason: 'wrong_answer', checkerMessage: compared.hint });
}

/** What a script test's check sees under /judge/files: the top two levels of the program's folder. */
export const COLLECT = ['*', '*/*'];

export const CHECKER_LIMITS: TestLimits = {
  cpuSeconds: 10,
  wallMs: 20_000,
  memoryBytes: 512 * MIB,
  outputBytes: 64 * 1024,
};

async function runScriptTest(ctx: RunContext, test: TestCaseSpec): Promise<EvaluationResult> {
  const hasDriver = test.driver.trim().length > 0;
  const driver = hasDriver ? [{ path: DRIVER_FILE, content: new TextEncoder().encode(test.driver) }] : [];
  const run = await ctx.run({
    files: sandboxFiles(ctx, driver),
    argv: hasDriver ? driverArgv(DRIVER_FILE) : programArgv(ctx.entryFile),
    stdin: test.stdin,
    limits: limitsFor(test),
    writable: true,
    collect: COLLECT,
    signal: ctx.signal,
  });
  const failure = runFailure(run, test);
  // A limit ends the test: there is no complete run to judge. A plain non-zero exit is the checker's call.
  if (failure && failure !== 'runtime_error')
    return evaluation(test, run, { status: 'Wrong', reason: failure });

  const check = await ctx.run({
    files: [{ path: 'check.py', content: test.checkScript }],
    argv: CHECKER_ARGV,
    limits: {
      ...CHECKER_LIMITS,
      memoryBytes: Math.max(CHECKER_LIMITS.memoryBytes, test.memoryLimitMb * MIB),
    },
    writable: false,
    readOnlyFiles: [
      {
        sandboxPath: '/judge',
        files: judgeFiles({
          stdin: test.stdin,
          expectedStdout: test.expectedStdout,
          run,
          submission: ctx.submission,
          given: [
            ...ctx.submission,
            ...ctx.attachments,
            ...driver.map((d) => ({ filename: d.path, content: d.content })),
          ],
        }),
      },
    ],
    signal: ctx.signal,
  });

  const said = check.stdout.trim();
  if (check.limit === null && check.exitCode === 0 && check.signal === null) {
    return evaluation(test, run, { status: 'Correct', checkerMessage: said });
  }
  if (check.limit === null && check.exitCode === 1 && check.signal === null) {
    // `sys.exit("why")` prints to stderr: keep it as the message when stdout said nothing.
    const message = said || check.stderr.trim().split('\n').at(-1) || '';
    return evaluation(test, run, {
      status: 'Wrong',
      reason: failure ?? 'wrong_answer',
      checkerMessage: message,
    });
  }
  const how = check.limit
    ? `exceeded its ${check.limit} limit`
    : check.signal
      ? `was killed by ${check.signal}`
      : `exited with code ${check.exitCode}`;
  const tail = check.stderr.trim().split('\n').slice(-5).join('\n');
  return evaluation(test, run, {
    status: 'Wrong',
    reason: 'checker_error',
    checkerMessage: [`The check script ${how}.`, said, tail].filter(Boolean).join('\n'),
  });
}

/** The harness leaves with exit 75 before any of the student's code loads when the host has no pytest. */
const NO_PYTEST_EXIT = 75;
/** Wall-clock room for starting pytest, on top of twice the test's limit. */
export const PYTEST_START_MS = 2000;

/**
 * A pytest test: the module beside the student's files (it replaces a submitted file of the same name),
 * one sandbox run of the whole file under the test's limits, each collected test an item. The harness
 * stops between tests once the run's CPU time passes the limit; the CPU rlimit stops a test that loops.
 */
async function runPytestTest(ctx: RunContext, test: TestCaseSpec): Promise<EvaluationResult> {
  const files = sandboxFiles(ctx).filter((f) => f.path !== test.testFileName);
  files.push({ path: test.testFileName, content: test.testCode });
  const run = await ctx.run({
    files,
    argv: pytestArgv(test.testFileName, test.timeLimitMs),
    stdin: '',
    // The harness keeps to the millisecond budget between tests; the rlimit, a second later, stops one
    // test that never ends.
    // test that never ends; pytest's own start-up (~0.3 s of CPU) gets room on the wall clock.
    limits: {
      ...limitsFor(test),
      cpuSeconds: Math.ceil(test.timeLimitMs / 1000) + 1,
      wallMs: 2 * test.timeLimitMs + PYTEST_START_MS,
    },
    writable: true,
    resultChannel: true,
    signal: ctx.signal,
  });
  const report = readChannel(run.channel);
  if (!report.ready && run.exitCode === NO_PYTEST_EXIT) {
    // Not the student's doing: nothing of theirs had run. Thrown, so the attempt is retried elsewhere.
    throw new Error(`pytest cannot run on this grader: ${run.stderr.trim().slice(0, 500)}`);
  }
  const verdict = pytestVerdict(report, run, test.testFileName);
  if (verdict.kind === 'broken') {
    const limit = run.limit && !report.collected ? runFailure(run, test) : null;
    return evaluation(test, run, {
      status: 'Wrong',
      reason: limit ?? 'collection_error',
      checkerMessage: verdict.message,
    });
  }
  const points = scaledPoints(test.points, verdict.earned, verdict.total);
  const allPassed = verdict.earned === verdict.total && verdict.items.every((i) => i.outcome === 'passed');
  if (allPassed && report.done !== null) {
    return evaluation(test, run, {
      status: 'Correct',
      checkerMessage: verdict.summary,
      items: verdict.items,
    });
  }
  const has = (outcome: string) => verdict.items.some((i) => i.outcome === outcome);
  const reason: WrongReason =
    run.limit === 'memory'
      ? 'memory_limit'
      : has('time_limit')
        ? 'time_limit'
        : has('failed')
          ? 'wrong_answer'
          : has('error')
            ? 'runtime_error'
            : 'wrong_answer';
  return evaluation(test, run, {
    status: 'Wrong',
    reason,
    points,
    checkerMessage: verdict.summary,
    items: verdict.items,
  });
}
