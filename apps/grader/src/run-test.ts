/**
 * Runs one test case of one submission: each run in a fresh sandbox, judged outside it. `io` tests
 * compare stdout in the grader; `script` tests hand what the program did to the instructor's check
 * script, in a second sandbox the student's code never enters.
 */
import { compareOutput } from './compare.ts';
import {
  MIB,
  evaluation,
  limitsFor,
  runFailure,
  sandboxFiles,
  type EvaluationResult,
  type RunContext,
  type TestCaseSpec,
  type TestLimits,
} from './evaluation.ts';
import { DRIVER_FILE } from './format.ts';
import { judgeFiles } from './judge-files.ts';
import { runPytestTest } from './run-pytest.ts';
import { CHECKER_ARGV, driverArgv, programArgv } from './python.ts';

export {
  limitsFor,
  runFailure,
  type EvaluationResult,
  type RunContext,
  type TestCaseSpec,
  type WrongReason,
} from './evaluation.ts';

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
