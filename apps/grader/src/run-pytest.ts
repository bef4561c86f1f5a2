/**
 * A pytest test case: the teacher's module, collected and run by pytest in a trusted sandbox (the
 * harness), with the submission's modules in a second sandbox of their own (the worker) that the
 * harness calls through proxies — a paired run (packages/sandbox/src/pair.ts; the Python is in
 * ./pytest/). The harness holds each test to its own limits on the worker's time only and reports every
 * test on its result channel; a run the host spoiled (no final record, an overloaded box, a worker
 * sandbox that died of something other than the submission's output) is run again, then given up as a
 * failure of the grader, never scored. docs/grading.md, "pytest tests", has the whole design.
 */
import {
  evaluation,
  MIB,
  type EvaluationResult,
  type RunContext,
  type TestCaseSpec,
  type WrongReason,
} from './evaluation.ts';
import { harnessArgv, workerArgv } from './pytest/sources.ts';
import { pytestVerdict, readChannel, scaledPoints, type HarnessReport } from './pytest-results.ts';
import type { PairedResult, SandboxFile } from './types.ts';

/** The harness leaves with exit 75 before anything else when the host has no pytest. */
const NO_PYTEST_EXIT = 75;
/** Runs of one test case the host spoiled before one counts as the grader's failure (thrown). */
export const PYTEST_TRIES = 3;
const RETRY_DELAY_MS = [1000, 3000];
/** The harness must report progress (a record on its channel) at least this often, beyond the tests' own
 * limits; it only fails to when the host is stuck or a test's own code (not the submission) loops. */
const IDLE_MS = 120_000;
/** What the student's process may print to its raw descriptors 1 and 2 (print() goes to the test). */
const WORKER_OUTPUT_BYTES = MIB;
/** Suffixes Python imports as code: a submitted file with one of them never enters the harness. */
const CODE_SUFFIX = /\.(py|pyc|pyo|pyw|pyd|so|pth)$/i;

/** The harness's own failure, or the host's: the run is repeated, never scored. */
export class HostFailure extends Error {
  override name = 'HostFailure';
}

export interface PytestRunOptions {
  /** `run` (grade) or `collect` (only list the tests, as a check of the file). */
  mode: 'run' | 'collect';
  /** Modules of the submission to stand in for (every name exists) when collecting without them. */
  stubs?: string[];
}

export async function runPytestTest(ctx: RunContext, test: TestCaseSpec): Promise<EvaluationResult> {
  const { run, report } = await runPytestFile(ctx, test, { mode: 'run' });
  return judge(test, run, report);
}

/** Runs the harness (retrying what the host spoiled) and returns its report. */
export async function runPytestFile(
  ctx: RunContext,
  test: TestCaseSpec,
  options: PytestRunOptions,
): Promise<{ run: PairedResult; report: HarnessReport }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(ctx, test, options);
    } catch (error) {
      if (!(error instanceof HostFailure) || attempt >= PYTEST_TRIES || ctx.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS[attempt - 1] ?? 3000));
    }
  }
}

/** The submission's Python modules as the harness names them (never the test module's own name). */
export function studentModules(files: { filename: string }[], testFileName: string): string[] {
  return files
    .map((f) => f.filename)
    .filter((name) => name.endsWith('.py') && name !== testFileName)
    .map((name) => name.slice(0, -3))
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
}

async function runOnce(
  ctx: RunContext,
  test: TestCaseSpec,
  options: PytestRunOptions,
): Promise<{ run: PairedResult; report: HarnessReport }> {
  const modules = studentModules(ctx.submission, test.testFileName);
  const assignmentModules = studentModules(ctx.attachments, test.testFileName);
  const toFile = (f: { filename: string; content: Uint8Array }): SandboxFile => ({
    path: f.filename,
    content: f.content,
  });
  // The harness's folder: the test module, the assignment's files, and the submission's data files —
  // never a file of the submission that Python could import or run.
  const harnessFiles = [
    ...ctx.attachments.filter((f) => f.filename !== test.testFileName).map(toFile),
    ...ctx.submission
      .filter((f) => !CODE_SUFFIX.test(f.filename) && f.filename !== test.testFileName)
      .map(toFile),
    { path: test.testFileName, content: test.testCode },
  ];
  const workerFiles = [
    ...ctx.submission.filter((f) => f.filename !== test.testFileName).map(toFile),
    ...ctx.attachments.filter((f) => f.filename !== test.testFileName).map(toFile),
  ];

  const idle = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const watch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new HostFailure('The test run stopped making progress.')), IDLE_MS);
  };
  watch();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, idle.signal]) : idle.signal;
  let run: PairedResult;
  try {
    run = await ctx.runPaired({
      main: {
        files: harnessFiles,
        argv: harnessArgv([
          test.testFileName,
          options.mode,
          String(test.timeLimitMs),
          String(test.memoryLimitMb),
          modules.join(','),
          assignmentModules.join(','),
          ctx.submission.map((f) => f.filename).join(','),
          (options.stubs ?? []).join(','),
        ]),
        limits: {
          cpuSeconds: 3600,
          wallMs: 6 * 60 * 60 * 1000,
          memoryBytes: Math.max(1024, 2 * test.memoryLimitMb) * MIB,
          outputBytes: MIB,
        },
        writable: true,
        resultChannel: true,
        signal,
      },
      worker: {
        files: workerFiles,
        argv: workerArgv([modules.join(','), assignmentModules.join(','), ctx.entryFile, String(64 * 1024)]),
        limits: {
          cpuSeconds: 24 * 60 * 60,
          memoryBytes: test.memoryLimitMb * MIB,
          outputBytes: WORKER_OUTPUT_BYTES,
        },
      },
      onChannel: watch,
    });
  } catch (error) {
    if (idle.signal.aborted && !ctx.signal?.aborted) throw idle.signal.reason as Error;
    throw error;
  } finally {
    clearTimeout(timer);
  }

  const report = readChannel(run.channel);
  if (!report.ready && run.exitCode === NO_PYTEST_EXIT) {
    // Not the student's doing: nothing of theirs had run. Thrown, so the attempt is retried elsewhere.
    throw new Error(`pytest cannot run on this grader: ${run.stderr.trim().slice(0, 500)}`);
  }
  if (report.infra !== null) throw new HostFailure(report.infra);
  if (report.done === null) {
    const how = run.limit ?? run.signal ?? `exit code ${run.exitCode}`;
    const tail = run.stderr.trim().split('\n').slice(-5).join('\n');
    throw new HostFailure(`The test process ended without its final record (${how}). ${tail}`.trim());
  }
  if (run.channelTruncated) throw new HostFailure('The test process reported more than its channel holds.');
  if (report.workerGone && run.worker.killedFor !== 'output') {
    throw new HostFailure("The submission's sandbox ended under the test process.");
  }
  return { run, report };
}

function judge(test: TestCaseSpec, run: PairedResult, report: HarnessReport): EvaluationResult {
  // What is shown of the run: the submission's own output to its descriptors and its memory; the
  // harness's stderr only when something went wrong on its side.
  const shown = {
    ...run,
    stdout: run.worker.stdout,
    stderr: run.worker.stderr,
    memoryKb: run.worker.memoryKb,
  };
  const verdict = pytestVerdict(report, test.testFileName);
  if (verdict.kind === 'broken') {
    const reason: WrongReason =
      report.errorReason === 'time_limit'
        ? 'time_limit'
        : report.errorReason === 'memory_limit'
          ? 'memory_limit'
          : 'collection_error';
    return evaluation(test, shown, { status: 'Wrong', reason, checkerMessage: verdict.message });
  }
  const points = scaledPoints(test.points, verdict.earned, verdict.total);
  if (verdict.items.every((i) => i.outcome === 'passed')) {
    return evaluation(test, shown, {
      status: 'Correct',
      checkerMessage: verdict.summary,
      items: verdict.items,
    });
  }
  const has = (outcome: string) => verdict.items.some((i) => i.outcome === outcome);
  const reason: WrongReason = verdict.memory
    ? 'memory_limit'
    : has('time_limit')
      ? 'time_limit'
      : has('failed')
        ? 'wrong_answer'
        : has('error')
          ? 'runtime_error'
          : 'wrong_answer';
  return evaluation(test, shown, {
    status: 'Wrong',
    reason,
    points,
    checkerMessage: verdict.summary,
    items: verdict.items,
  });
}
