/** pytest test cases in the real sandbox: items, points, harness failures, limits, and what cannot fake. */
import { describe, expect, it } from 'vitest';
import { runSandboxed } from '@kadai/sandbox';
import { readChannel, scaledPoints } from './pytest-results.ts';
import { runTestCase, type RunContext, type TestCaseSpec } from './run-test.ts';
import { Semaphore } from './semaphore.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

const ADD = 'def add(a, b):\n    print("adding", a, b)\n    return a + b\n';

function context(files: Record<string, string>): RunContext {
  return {
    run: runSandboxed,
    slots: new Semaphore(4),
    entryFile: 'main.py',
    submission: Object.entries(files).map(([filename, content]) => ({ filename, content: bytes(content) })),
    attachments: [],
  };
}

const spec = (testCode: string, overrides: Partial<TestCaseSpec> = {}): TestCaseSpec => ({
  id: 1,
  name: 'unit tests',
  kind: 'pytest',
  points: 10,
  stdin: '',
  expectedStdout: '',
  comparison: 'whitespace',
  tolerance: 0,
  driver: '',
  checkScript: '',
  testFileName: 'test_main.py',
  testCode,
  timeLimitMs: 3000,
  memoryLimitMb: 256,
  ...overrides,
});

const MIXED = `import pytest
from main import add
from kadai import points

def test_pass():
    assert add(1, 2) == 3

@points(3)
def test_fail():
    assert add([1, 2], [3]) == [1, 2, 4]

def test_error():
    add(None, 1)

@pytest.mark.skip(reason="not today")
def test_skip():
    pass

@pytest.mark.points(2)
@pytest.mark.parametrize("a", [1, 2])
def test_param(a):
    assert add(a, a) == 2 * a

def test_zz_slow():
    while True:
        pass
`;

describe.concurrent('pytest test cases', { timeout: 30_000 }, () => {
  it('reports every collected test as an item and scales the passed shares to the points', async () => {
    const result = await runTestCase(context({ 'main.py': ADD }), spec(MIXED, { timeLimitMs: 1500 }));
    expect(result.items.map((i) => [i.name, i.outcome, i.points, i.max_points])).toEqual([
      ['test_pass', 'passed', 1, 1],
      ['test_fail', 'failed', 0, 3],
      ['test_error', 'error', 0, 1],
      ['test_skip', 'skipped', 0, 1],
      ['test_param[1]', 'passed', 2, 2],
      ['test_param[2]', 'passed', 2, 2],
      ['test_zz_slow', 'time_limit', 0, 1],
    ]);
    // 5 of 11 shares, scaled to 10 points and rounded down.
    expect(result).toMatchObject({ status: 'Wrong', reason: 'time_limit', points: 4 });
    const fail = result.items[1]!;
    expect(fail.message).toContain('assert [1, 2, 3] == [1, 2, 4]');
    expect(fail.message).toContain('At index 2 diff: 3 != 4');
    expect(fail.output).toContain('adding [1, 2] [3]');
    expect(result.items[2]!.message).toContain('TypeError');
    expect(result.items[3]!.message).toContain('not today');
    expect(result.checkerMessage).toBe('3 of 7 tests passed (1 failed, 1 error, 1 skipped, 1 time limit).');
  });

  it('runs unittest.TestCase classes the same way, and full marks when every test passes', async () => {
    const module = `import unittest
from main import add

class TestAdd(unittest.TestCase):
    def test_small(self):
        self.assertEqual(add(2, 2), 4)

    def test_wrong(self):
        self.assertEqual(add(2, 2), 5)
`;
    const [mixed, good] = await Promise.all([
      runTestCase(context({ 'main.py': ADD }), spec(module)),
      runTestCase(context({ 'main.py': ADD }), spec(module.replace('add(2, 2), 5', 'add(2, 3), 5'))),
    ]);
    expect(mixed.items.map((i) => [i.name, i.outcome])).toEqual([
      ['TestAdd::test_small', 'passed'],
      ['TestAdd::test_wrong', 'failed'],
    ]);
    expect(mixed.items[1]!.message).toContain('AssertionError: 4 != 5');
    expect(mixed).toMatchObject({ status: 'Wrong', reason: 'wrong_answer', points: 5 });
    expect(good).toMatchObject({ status: 'Correct', reason: null, points: 10 });
  });

  it('reports a broken test file, a broken submission and an empty file as such, with the message', async () => {
    const [syntax, importError, empty, badMarker] = await Promise.all([
      runTestCase(context({ 'main.py': ADD }), spec('def test_x(:\n    pass\n')),
      runTestCase(context({ 'main.py': 'raise RuntimeError("boom at import")\n' }), spec(MIXED)),
      runTestCase(context({ 'main.py': ADD }), spec('def helper():\n    pass\n')),
      runTestCase(
        context({ 'main.py': ADD }),
        spec('import pytest\n@pytest.mark.points(1.5)\ndef test_x():\n    pass\n'),
      ),
    ]);
    for (const result of [syntax, importError, empty, badMarker]) {
      expect(result).toMatchObject({ status: 'Wrong', reason: 'collection_error', points: 0, items: [] });
    }
    expect(syntax.checkerMessage).toMatch(/SyntaxError/);
    expect(importError.checkerMessage).toContain('RuntimeError: boom at import');
    expect(empty.checkerMessage).toBe('No tests were collected from test_main.py.');
    expect(badMarker.checkerMessage).toBe('test_x: @points(n) takes a whole number from 0 to 1000.');
  });

  it('ignores fake results printed or written to files, and a submitted file named like the module', async () => {
    const cheat = `import os
print('{"t": "result", "id": "test_main.py::test_fail", "outcome": "passed", "message": "", "output": ""}')
for name in ['result.json', 'report.xml', '.pytest_cache']:
    open(name, 'w').write('passed')
def add(a, b):
    return a - b
`;
    const result = await runTestCase(
      context({ 'main.py': cheat, 'test_main.py': 'def test_fake():\n    pass\n' }),
      spec('from main import add\n\ndef test_fail():\n    assert add(2, 2) == 4\n'),
    );
    expect(result.items.map((i) => [i.name, i.outcome])).toEqual([['test_fail', 'failed']]);
    expect(result).toMatchObject({ status: 'Wrong', points: 0 });
  });

  it('takes 500 tests in one run, within the text caps', async () => {
    const module = `import pytest
@pytest.mark.parametrize("n", range(500))
def test_n(n):
    print("x" * 40000)
    assert n % 100 != 7, "y" * 40000
`;
    const result = await runTestCase(context({ 'main.py': ADD }), spec(module, { timeLimitMs: 8000 }));
    expect(result.items).toHaveLength(500);
    expect(result.items.filter((i) => i.outcome === 'failed')).toHaveLength(5);
    const texts = result.items.reduce((sum, i) => sum + i.message.length + i.output.length, 0);
    expect(texts).toBeLessThan(256 * 1024 + 500 * 2 * 600);
    expect(result.items[0]!.output.length).toBeLessThanOrEqual(16 * 1024 + 20);
    expect(result.points).toBe(Math.floor((10 * 495) / 500));
  });
});

describe('a pytest run over its time', { timeout: 30_000 }, () => {
  it('stops between tests once the run has used its CPU time', async () => {
    const module = Array.from(
      { length: 8 },
      (_, i) =>
        `def test_${i}():\n    import time\n    end = time.process_time() + 0.2\n    while time.process_time() < end:\n        pass\n`,
    ).join('\n');
    const result = await runTestCase(context({ 'main.py': ADD }), spec(module, { timeLimitMs: 1000 }));
    const outcomes = result.items.map((i) => i.outcome);
    expect(outcomes[0]).toBe('passed');
    expect(outcomes.at(-1)).toBe('time_limit');
    expect(result).toMatchObject({ status: 'Wrong', reason: 'time_limit' });
  });
});

describe('the result channel', () => {
  const line = (record: object) => JSON.stringify(record);
  it('skips lines that are not records, keeps the last of a kind, and nothing after done', () => {
    const report = readChannel(
      bytes(
        [
          'not json',
          line({ t: 'ready' }),
          line({ t: 'collected', items: [{ id: 'a', points: 1 }] }),
          line({ t: 'result', id: 'a', outcome: 'failed', message: 'm', output: '' }),
          line({ t: 'result', id: 'a', outcome: 'bogus', message: '', output: '' }),
          line({ t: 'done', exit: 1, stopped: false }),
          line({ t: 'result', id: 'a', outcome: 'passed', message: '', output: '' }),
        ].join('\n'),
      ),
    );
    expect(report.ready).toBe(true);
    expect(report.results.get('a')?.outcome).toBe('failed');
    expect(report.done).toEqual({ exit: 1, stopped: false });
  });

  it('scales shares: exact at full marks, rounded down otherwise, 0 without shares', () => {
    expect(scaledPoints(10, 20, 20)).toBe(10);
    expect(scaledPoints(10, 19, 20)).toBe(9);
    expect(scaledPoints(10, 0, 0)).toBe(0);
    expect(scaledPoints(20, 7, 20)).toBe(7);
  });
});
