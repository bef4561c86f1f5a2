import { readFileSync } from 'node:fs';
import { runPaired, runSandboxed, type SandboxRequest } from '@kadai/sandbox';
import { programArgv } from '../apps/grader/src/python.ts';
import { runTestCase } from '../apps/grader/src/run-test.ts';
import { Semaphore } from '../apps/grader/src/semaphore.ts';
import { pytestSpec } from '../apps/grader/src/evaluation.ts';
import { pytestArgv } from './pytest-one-process.ts';

/*
 * The pytest side of `npm run bench:grading` (`-- --pytest` or BENCH_MODE=pytest): the test modules, the
 * sandbox CPU of this process's children, and the references measured before the spike:
 *
 * - the spike's own module (20 small tests) through the grader, against one io test run (IO_RATIO);
 * - a course-sized module (55 tests of functions, a class and parametrized cases), for a correct and a
 *   failing-heavy submission, graded the way Kadai grades (the test module and the submission in two
 *   sandboxed processes, issue 35) and the way it did until then (one process: bench/pytest-one-process.ts).
 *   The two-process design may cost at most 1.5× the one-process CPU per submission.
 */

export const PYTEST_TESTS = 20;
/**
 * A pytest run of the spike's module against an io test run: at most 5× (issue 18), then 1.5× that when
 * pytest runs became two processes (issue 35 allows them 1.5× the one-process CPU).
 */
const IO_RATIO = 7.5;
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

/** A course's exercise file: 55 tests. */
export const COURSE_TESTS = 55;
export const COURSE_MODULE = `import pytest
from main import add, is_prime, reverse_words, count_vowels, fizzbuzz, Stack

@pytest.mark.parametrize('a, b', [(i, 2 * i - 3) for i in range(10)])
def test_add(a, b):
    assert add(a, b) == a + b

@pytest.mark.parametrize('n, expected', [(2, True), (3, True), (4, False), (17, True), (21, False),
                                          (97, True), (100, False), (7919, True), (1, False), (0, False)])
def test_is_prime(n, expected):
    assert is_prime(n) == expected

@pytest.mark.parametrize('text', ['a b c', 'hello world', 'one', 'the quick brown fox', 'x  y'])
def test_reverse_words(text):
    assert reverse_words(text) == ' '.join(reversed(text.split()))

@pytest.mark.parametrize('text, n', [('aeiou', 5), ('xyz', 0), ('Kadai', 3), ('', 0), ('AbEcI', 3)])
def test_count_vowels(text, n):
    assert count_vowels(text) == n

@pytest.mark.parametrize('n', range(1, 16))
def test_fizzbuzz(n):
    expected = 'FizzBuzz' if n % 15 == 0 else 'Fizz' if n % 3 == 0 else 'Buzz' if n % 5 == 0 else str(n)
    assert fizzbuzz(n) == expected

class TestStack:
    def test_empty(self):
        assert len(Stack()) == 0

    def test_push_pop(self):
        s = Stack()
        s.push(1)
        s.push(2)
        assert s.pop() == 2 and s.pop() == 1

    def test_peek(self):
        s = Stack()
        s.push('x')
        assert s.peek() == 'x' and len(s) == 1

    def test_many(self):
        s = Stack()
        for i in range(100):
            s.push(i)
        assert [s.pop() for _ in range(100)] == list(range(99, -1, -1))

    def test_pop_empty(self):
        with pytest.raises(IndexError):
            Stack().pop()

    def test_items(self):
        s = Stack()
        s.push(3)
        assert s.items == [3]

    def test_repr(self):
        s = Stack()
        s.push(1)
        assert 'Stack' in repr(s)

    def test_iter(self):
        s = Stack()
        s.push(1)
        s.push(2)
        assert list(s) == [1, 2]

    def test_bool(self):
        assert not Stack()

    def test_eq(self):
        a, b = Stack(), Stack()
        a.push(1)
        b.push(1)
        assert a == b
`;
export const COURSE_PROGRAM = `def add(a, b):
    return a + b

def is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))

def reverse_words(text):
    return ' '.join(reversed(text.split()))

def count_vowels(text):
    return sum(c in 'aeiouAEIOU' for c in text)

def fizzbuzz(n):
    return 'FizzBuzz' if n % 15 == 0 else 'Fizz' if n % 3 == 0 else 'Buzz' if n % 5 == 0 else str(n)

class Stack:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
    def pop(self):
        return self.items.pop()
    def peek(self):
        return self.items[-1]
    def __len__(self):
        return len(self.items)
    def __iter__(self):
        return iter(self.items)
    def __eq__(self, other):
        return isinstance(other, Stack) and self.items == other.items
    def __repr__(self):
        return 'Stack(%r)' % self.items
`;
/** Wrong almost everywhere, in ways that make pytest write long assertion diffs. */
export const COURSE_FAILING_PROGRAM = COURSE_PROGRAM.replace('return a + b', 'return [a] * 50')
  .replace("return ' '.join(reversed(text.split()))", "return text.upper() + ' ' + text * 20")
  .replace("return sum(c in 'aeiouAEIOU' for c in text)", 'return -1')
  .replace("'FizzBuzz' if n % 15 == 0 else 'Fizz'", "'Fizz' if n % 15 == 0 else 'FizzBuzz'")
  .replace('return n > 1 and all', 'return n < 1 or all')
  .replace('return self.items.pop()', 'return self.items[0]')
  .replace('return self.items[-1]', 'return None');

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
  /** Tests that passed in the last run (the same in every run for the figure to mean anything). */
  passed: number;
  /** Runs whose result was not the expected one (must be 0). */
  failed: number;
}

async function measure(runs: number, once: () => Promise<number>, expected: number): Promise<ReferenceRun> {
  let failed = 0;
  let passed = 0;
  const before = childrenCpuMs();
  for (let i = 0; i < runs; i += 1) {
    passed = await once();
    if (passed !== expected) failed += 1;
  }
  return { cpuMs: (childrenCpuMs() - before) / runs, passed, failed };
}

/**
 * Both ways of running, one run each in turn, so that a box whose load drifts over the minute they take
 * weighs on both alike: the mean CPU per run of each.
 */
async function measureBoth(
  runs: number,
  one: () => Promise<number>,
  two: () => Promise<number>,
  expected: number,
): Promise<{ oneProcess: ReferenceRun; twoProcesses: ReferenceRun }> {
  const totals = [0, 0];
  const results = [
    { cpuMs: 0, passed: 0, failed: 0 },
    { cpuMs: 0, passed: 0, failed: 0 },
  ];
  for (let i = 0; i < runs; i += 1) {
    for (const [index, once] of [one, two].entries()) {
      const before = childrenCpuMs();
      const passed = await once();
      totals[index]! += childrenCpuMs() - before;
      results[index]!.passed = passed;
      if (passed !== expected) results[index]!.failed += 1;
    }
  }
  results.forEach((result, index) => (result.cpuMs = totals[index]! / runs));
  return { oneProcess: results[0]!, twoProcesses: results[1]! };
}

/** Tests that passed, from the one-process harness's JSON lines (its records are not today's). */
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

const encoder = new TextEncoder();

function oneProcess(program: string, module: string): () => Promise<number> {
  const request: SandboxRequest = {
    files: [
      { path: 'main.py', content: program },
      { path: 'test_main.py', content: module },
    ],
    argv: pytestArgv('test_main.py', 60_000),
    stdin: '',
    limits: { cpuSeconds: 61, wallMs: 120_000, memoryBytes: 256 * MIB },
    writable: true,
    resultChannel: true,
  };
  return async () => passedTests((await runSandboxed(request)).channel);
}

function twoProcesses(program: string, module: string): () => Promise<number> {
  const test = pytestSpec({
    testFileName: 'test_main.py',
    testCode: module,
    timeLimitMs: 2000,
    memoryLimitMb: 256,
  });
  const ctx = {
    run: runSandboxed,
    runPaired,
    slots: new Semaphore(1),
    entryFile: 'main.py',
    submission: [{ filename: 'main.py', content: encoder.encode(program) }],
    attachments: [],
  };
  return async () => (await runTestCase(ctx, test)).items.filter((i) => i.outcome === 'passed').length;
}

export interface PytestReference {
  io: ReferenceRun;
  /** pytest mode only. */
  pytest: {
    /** The spike's module through the grader. */
    spike: ReferenceRun;
    course: {
      passing: { oneProcess: ReferenceRun; twoProcesses: ReferenceRun };
      failing: { oneProcess: ReferenceRun; twoProcesses: ReferenceRun };
    };
  } | null;
}

/**
 * The references, measured one run after another on the box as it is now: an io test run, the spike's
 * pytest module (the grader's way), and the course module both ways for both submissions.
 */
export async function measureReference(pytest: boolean, runs = 12): Promise<PytestReference> {
  const io = await measure(
    2 * runs,
    async () => {
      const r = await runSandboxed({
        files: [{ path: 'main.py', content: IO_PROGRAM }],
        argv: programArgv('main.py'),
        stdin: '1 2\n',
        // What limitsFor gives a test of the default 2 s / 256 MB.
        limits: { cpuSeconds: 2, wallMs: 4500, memoryBytes: 256 * MIB, outputBytes: MIB },
        writable: true,
      });
      return r.exitCode === 0 && r.stdout.trim() === '3' ? 1 : 0;
    },
    1,
  );
  if (!pytest) return { io, pytest: null };
  const spike = await measure(2 * runs, twoProcesses(ADD_PROGRAM, PYTEST_MODULE), PYTEST_TESTS);
  const failingPassed = 25;
  const course = {
    passing: await measureBoth(
      runs,
      oneProcess(COURSE_PROGRAM, COURSE_MODULE),
      twoProcesses(COURSE_PROGRAM, COURSE_MODULE),
      COURSE_TESTS,
    ),
    failing: await measureBoth(
      runs,
      oneProcess(COURSE_FAILING_PROGRAM, COURSE_MODULE),
      twoProcesses(COURSE_FAILING_PROGRAM, COURSE_MODULE),
      failingPassed,
    ),
  };
  return { io, pytest: { spike, course } };
}

/** The reference's lines, and its targets: [what, measured, met]. */
export function referenceReport(reference: PytestReference): {
  ioCpuMs: number;
  lines: string[];
  targets: [string, string, boolean][];
} {
  const { io } = reference;
  const head = `io test run: ${io.cpuMs.toFixed(1)} ms sandbox CPU`;
  if (reference.pytest === null) {
    return {
      ioCpuMs: io.cpuMs,
      lines: [head],
      targets: [['every reference run right', `${io.failed} wrong`, io.failed === 0]],
    };
  }
  const { spike, course } = reference.pytest;
  const ratio = spike.cpuMs / io.cpuMs;
  const lines = [
    head,
    `pytest ${PYTEST_TESTS} tests (the spike's module, two processes): ${spike.cpuMs.toFixed(1)} ms, ` +
      `${ratio.toFixed(2)}× the io run (target ≤ ${IO_RATIO}×)`,
  ];
  const targets: [string, string, boolean][] = [
    [`pytest ${PYTEST_TESTS} tests ≤ ${IO_RATIO}× an io test run`, `${ratio.toFixed(2)}×`, ratio <= IO_RATIO],
  ];
  for (const [label, pair] of Object.entries(course)) {
    const { oneProcess: one, twoProcesses: two } = pair;
    const share = two.cpuMs / one.cpuMs;
    lines.push(
      `${COURSE_TESTS}-test module, ${label} submission (${two.passed} passed): ` +
        `one process ${one.cpuMs.toFixed(0)} ms (${(one.cpuMs / COURSE_TESTS).toFixed(1)} ms a test), ` +
        `two processes ${two.cpuMs.toFixed(0)} ms (${(two.cpuMs / COURSE_TESTS).toFixed(1)} ms a test): ` +
        `${share.toFixed(2)}× (target ≤ 1.5×)`,
    );
    targets.push([`two processes ≤ 1.5× one, ${label} submission`, `${share.toFixed(2)}×`, share <= 1.5]);
    const wrong = one.failed + two.failed + (one.passed === two.passed ? 0 : 1);
    targets.push([`the same verdicts both ways, ${label} submission`, `${wrong} runs differ`, wrong === 0]);
  }
  const wrongRuns = io.failed + spike.failed;
  targets.push(['every reference run right', `${wrongRuns} wrong`, wrongRuns === 0]);
  return { ioCpuMs: io.cpuMs, lines, targets };
}
