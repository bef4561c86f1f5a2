import { readFileSync } from 'node:fs';
import { runSandboxed, type SandboxRequest } from '@kadai/sandbox';
import { programArgv } from '../apps/grader/src/python.ts';
import { pytestArgv } from '../apps/grader/src/pytest-harness.ts';
import { percentile } from './stats.ts';

/*
 * The pytest side of `npm run bench:grading` (`-- --pytest` or BENCH_MODE=pytest): the test module of
 * the spike, the sandbox CPU of this process's children, and the reference runs measured before it.
 */

export const PYTEST_TESTS = 20;
export const PYTEST_TIME_LIMIT_MS = 5000;
export const ADD_PROGRAM = 'def add(a, b):\n    return a + b\n';
/** One module of 20 small tests, each worth one share: `points` 20 makes each test one point. */
export const PYTEST_MODULE = [
  'from main import add',
  ...Array.from(
    { length: PYTEST_TESTS },
    (_, i) => `\ndef test_${i + 1}():\n    assert add(${i}, 1) == ${i + 1}\n`,
  ),
].join('\n');

/** The bench's io program and one of its tests, for the io reference. */
const IO_PROGRAM = 'a, b = map(int, input().split())\nprint(a + b)\n';
const MIB = 1024 * 1024;

/**
 * CPU (user + system, ms) of this process's children that have been waited for, with their own waited-for
 * descendants: cutime + cstime of /proc/self/stat (clock ticks of 10 ms). The grader runs in this process
 * and Node reaps each bwrap, which reaps the sandbox's processes, so every sandbox tree is counted once it
 * ends.
 */
export function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

export interface ReferenceRun {
  /** Children CPU per run (ms), from /proc/self/stat around all the runs. */
  cpuMs: number;
  /** Median of the launcher's own `cpuMs` of each run. */
  medianRunCpuMs: number;
  /** Runs whose result was not the expected one (must be 0 for the figure to mean anything). */
  failed: number;
}

async function measure(
  runs: number,
  request: SandboxRequest,
  ok: (result: Awaited<ReturnType<typeof runSandboxed>>) => boolean,
): Promise<ReferenceRun> {
  const perRun: number[] = [];
  let failed = 0;
  const before = childrenCpuMs();
  for (let i = 0; i < runs; i += 1) {
    const result = await runSandboxed(request);
    if (result.cpuMs !== null) perRun.push(result.cpuMs);
    if (!ok(result)) failed += 1;
  }
  const cpuMs = (childrenCpuMs() - before) / runs;
  return { cpuMs, medianRunCpuMs: percentile(perRun, 50), failed };
}

/** Tests that passed, from the harness's JSON lines on the result channel. */
function passedTests(channel: Uint8Array | undefined): number {
  let passed = 0;
  for (const line of new TextDecoder().decode(channel ?? new Uint8Array()).split('\n')) {
    if (!line.trim()) continue;
    const record: unknown = JSON.parse(line);
    if (typeof record === 'object' && record !== null && 'outcome' in record && record.outcome === 'passed')
      passed += 1;
  }
  return passed;
}

/**
 * The reference, measured sequentially on the box as it is now: one io test run of the bench's io
 * program (the argv the grader uses for io tests) and one pytest run of the 20-test module (the harness
 * the grader uses), `runs` times each.
 */
export async function measureReference(runs = 20): Promise<{ io: ReferenceRun; pytest: ReferenceRun }> {
  const io = await measure(
    runs,
    {
      files: [{ path: 'main.py', content: IO_PROGRAM }],
      argv: programArgv('main.py'),
      stdin: '1 2\n',
      // What limitsFor gives a test of the default 2 s / 256 MB.
      limits: { cpuSeconds: 2, wallMs: 4500, memoryBytes: 256 * MIB, outputBytes: MIB },
      writable: true,
    },
    (r) => r.exitCode === 0 && r.stdout.trim() === '3',
  );
  const pytest = await measure(
    runs,
    {
      files: [
        { path: 'main.py', content: ADD_PROGRAM },
        { path: 'test_main.py', content: PYTEST_MODULE },
      ],
      argv: pytestArgv('test_main.py', PYTEST_TIME_LIMIT_MS),
      stdin: '',
      limits: { cpuSeconds: 6, wallMs: 12_000, memoryBytes: 256 * MIB },
      writable: true,
      resultChannel: true,
    },
    (r) => passedTests(r.channel) === PYTEST_TESTS,
  );
  return { io, pytest };
}

export function referenceLines(reference: { io: ReferenceRun; pytest: ReferenceRun }): string[] {
  const { io, pytest } = reference;
  const failures = io.failed + pytest.failed;
  return [
    `io test run: ${io.cpuMs.toFixed(1)} ms sandbox CPU (launcher's cpuMs median ${io.medianRunCpuMs} ms)`,
    `pytest ${PYTEST_TESTS} tests: ${pytest.cpuMs.toFixed(1)} ms sandbox CPU (launcher's cpuMs median ${pytest.medianRunCpuMs} ms)`,
    `ratio Y/X ${(pytest.cpuMs / io.cpuMs).toFixed(2)}× (target ≤ 5×)` +
      (failures > 0 ? ` — ${failures} reference runs gave a wrong result` : ''),
  ];
}
