/**
 * What the grader makes of a paired run the host spoiled: never a score. The sandbox is faked here (the
 * real one is in pytest.test.ts), so each way a run can go wrong is exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PairedResult } from '@kadai/sandbox';
import { runSandboxed } from '@kadai/sandbox';
import { HostFailure, PYTEST_TRIES } from './run-pytest.ts';
import { runTestCase } from './run-test.ts';
import { spec } from './pytest-testing.ts';
import { Semaphore } from './semaphore.ts';

const line = (record: object) => `${JSON.stringify(record)}\n`;
const RESULT = { message: '', output: '', cpu_ms: 3, memory: false };
const COLLECTED = line({ t: 'collected', items: [{ id: 'test_main.py::test_a', points: 1, limit: 2000 }] });
const PASSED = line({ t: 'result', id: 'test_main.py::test_a', outcome: 'passed', ...RESULT });

function paired(channel: string, overrides: Partial<PairedResult> = {}): PairedResult {
  return {
    exitCode: 0,
    signal: null,
    timeMs: 100,
    cpuMs: 80,
    memoryKb: 1000,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    limit: null,
    files: [],
    channel: new TextEncoder().encode(line({ t: 'ready' }) + channel),
    channelTruncated: false,
    worker: {
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      cpuMs: 10,
      memoryKb: 500,
      killedFor: null,
    },
    ...overrides,
  };
}

function context(results: PairedResult[]) {
  const runPaired = vi.fn(async () => {
    const next = results.shift();
    if (!next) throw new Error('no more runs');
    return next;
  });
  return {
    runPaired,
    ctx: {
      run: runSandboxed,
      runPaired,
      slots: new Semaphore(1),
      entryFile: 'main.py',
      submission: [{ filename: 'main.py', content: new TextEncoder().encode('x = 1') }],
      attachments: [],
    },
  };
}

describe('a pytest run the host spoiled', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settle = async <T>(promise: Promise<T>) => {
    const caught = promise.then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    return caught;
  };

  it.each([
    ['its records were lost (no final record)', paired(COLLECTED + PASSED)],
    [
      'it hit its wall clock before collecting',
      paired('', { limit: 'wall', exitCode: null, signal: 'SIGKILL' }),
    ],
    ['the harness said the host failed it', paired(COLLECTED + line({ t: 'infra', message: 'no CPU' }))],
    [
      "the submission's sandbox died of something else",
      paired(COLLECTED + line({ t: 'worker-gone' }) + PASSED + line({ t: 'done', exit: 0 })),
    ],
    [
      'its channel overflowed',
      paired(COLLECTED + PASSED + line({ t: 'done', exit: 0 }), { channelTruncated: true }),
    ],
  ])('is tried again, then fails as the grader’s, never scored: %s', async (_why, spoiled) => {
    const { ctx, runPaired } = context(Array.from({ length: PYTEST_TRIES }, () => spoiled));
    const { error } = await settle(runTestCase(ctx, spec('def test_a(): pass')));
    expect(error).toBeInstanceOf(HostFailure);
    expect(runPaired).toHaveBeenCalledTimes(PYTEST_TRIES);
  });

  it('scores the first run that ends well', async () => {
    const good = paired(COLLECTED + PASSED + line({ t: 'done', exit: 0 }));
    const { ctx, runPaired } = context([paired(COLLECTED), good]);
    const { value } = await settle(runTestCase(ctx, spec('def test_a(): pass')));
    expect(value).toMatchObject({ status: 'Correct', points: 10 });
    expect(runPaired).toHaveBeenCalledTimes(2);
  });

  it('charges the submission for flooding its own sandbox', async () => {
    const flooded = paired(
      COLLECTED +
        line({ t: 'worker-gone' }) +
        line({ t: 'result', id: 'test_main.py::test_a', outcome: 'error', ...RESULT }) +
        line({ t: 'done', exit: 1 }),
      { worker: { ...paired('').worker, killedFor: 'output' } },
    );
    const { ctx, runPaired } = context([flooded]);
    const { value } = await settle(runTestCase(ctx, spec('def test_a(): pass')));
    expect(value).toMatchObject({ status: 'Wrong', reason: 'runtime_error', points: 0 });
    expect(runPaired).toHaveBeenCalledTimes(1);
  });
});
