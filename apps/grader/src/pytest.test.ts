/**
 * pytest test cases in the real sandbox: the test module runs in a process of its own, the submission in
 * another, behind proxies. Items and points, what crosses between the two (and how faithfully), limits
 * per test, files that cannot run and what they say. The cheats are in pytest-adversarial.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readChannel, scaledPoints } from './pytest-results.ts';
import { context, spec } from './pytest-testing.ts';
import { runTestCase } from './run-test.ts';

const ADD = `def add(a, b):
    print("adding", a, b)
    return a + b

def forever():
    while True:
        pass
`;

const MIXED = `import pytest
from main import add
import main
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

def test_loops():
    main.forever()

def test_after_the_loop():
    assert add(20, 22) == 42
`;

const name = (items: { name: string; outcome: string }[]) => items.map((i) => [i.name, i.outcome]);

describe.concurrent('pytest test cases', { timeout: 60_000 }, () => {
  it('reports every collected test as an item, stops only the test that loops, and scales the shares', async () => {
    const result = await runTestCase(context({ 'main.py': ADD }), spec(MIXED, { timeLimitMs: 500 }));
    expect(result.items.map((i) => [i.name, i.outcome, i.points, i.max_points])).toEqual([
      ['test_pass', 'passed', 1, 1],
      ['test_fail', 'failed', 0, 3],
      ['test_error', 'error', 0, 1],
      ['test_skip', 'skipped', 0, 1],
      ['test_param[1]', 'passed', 2, 2],
      ['test_param[2]', 'passed', 2, 2],
      ['test_loops', 'time_limit', 0, 1],
      ['test_after_the_loop', 'passed', 1, 1],
    ]);
    // 6 of 12 shares, scaled to 10 points.
    expect(result).toMatchObject({ status: 'Wrong', reason: 'time_limit', points: 5 });
    const [, fail, error, skip] = result.items;
    expect(fail!.message).toContain('assert [1, 2, 3] == [1, 2, 4]');
    expect(fail!.message).toContain('At index 2 diff: 3 != 4');
    expect(fail!.output).toContain('adding [1, 2] [3]');
    expect(error!.message).toContain('TypeError');
    expect(error!.message).toContain('In the submission:\n  File "main.py", line 3, in add');
    expect(skip!.message).toContain('not today');
    expect(result.items[6]!.message).toBe('Stopped: this test used more than 500 ms of CPU time, its limit.');
    expect(result.checkerMessage).toBe('4 of 8 tests passed (1 failed, 1 error, 1 skipped, 1 time limit).');
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
    expect(name(mixed.items)).toEqual([
      ['TestAdd::test_small', 'passed'],
      ['TestAdd::test_wrong', 'failed'],
    ]);
    expect(mixed.items[1]!.message).toContain('AssertionError: 4 != 5');
    expect(mixed).toMatchObject({ status: 'Wrong', reason: 'wrong_answer', points: 5 });
    expect(good).toMatchObject({ status: 'Correct', reason: null, points: 10 });
  });

  it('gives the test what `import main` would: objects, classes, exceptions, output, input, mutation', async () => {
    const submission = `import collections, dataclasses, enum, fractions
COUNT = 0
Point = collections.namedtuple('Point', 'x y')

class Empty(Exception):
    def __str__(self):
        return 'the stack is empty'

class Stack:
    """A stack."""
    def __init__(self, items=()):
        self.items = list(items)
    def push(self, x):
        self.items.append(x)
        return self
    def pop(self):
        if not self.items:
            raise Empty()
        return self.items.pop()
    def __len__(self):
        return len(self.items)
    def __iter__(self):
        return iter(self.items)
    def __eq__(self, other):
        return isinstance(other, Stack) and self.items == other.items
    def __repr__(self):
        return 'Stack(%r)' % self.items

class Limited(Stack):
    pass

@dataclasses.dataclass(frozen=True)
class Card:
    rank: int
    suit: str

class Color(enum.Enum):
    RED = 1
    BLUE = 2

def count():
    global COUNT
    COUNT += 1
    return COUNT

def greet(name):
    print('Hello,', name)

def ask():
    return int(input('A number? ')) * 2

def read_all():
    import sys
    return [line.strip() for line in sys.stdin]

def sort_in_place(values):
    values.sort()

def tally(words, counts):
    for w in words:
        counts[w] = counts.get(w, 0) + 1

def apply(f, values):
    return [f(v) for v in values]

def squares(n):
    for i in range(n):
        yield i * i

def mixed():
    return {'t': (1, 'a'), 's': {1, 2}, 'b': b'\\x00\\xff', 'f': fractions.Fraction(1, 3), 'big': 3 ** 9000, 'p': Point(1, 2)}

def card():
    return Card(12, 'hearts')

def color():
    return Color.BLUE

def length(node):
    n = 0
    while node is not None:
        n, node = n + 1, node.next
    return n

def append(node, value):
    from node import Node
    while node.next is not None:
        node = node.next
    node.next = Node(value)

def write_to(stream):
    stream.write('written\\n')

def leave():
    raise SystemExit(3)
`;
    const module = `import io
import pytest
import main
from main import *
from node import Node

def test_objects():
    s = Stack([1]).push(2)
    assert len(s) == 2 and list(s) == [1, 2]
    assert s.pop() == 2 and s.items == [1]
    assert isinstance(s, Stack) and not isinstance(s, Limited) and isinstance(Limited(), Stack)
    assert s == Stack([1]) and s != Stack([9])
    assert repr(s) == 'Stack([1])' and Stack.__doc__ == 'A stack.'
    assert s is s.push(5)

def test_exceptions():
    with pytest.raises(Empty, match='the stack is empty'):
        Stack().pop()
    with pytest.raises(SystemExit):
        main.leave()

def test_values():
    value = main.mixed()
    assert value['t'] == (1, 'a') and value['s'] == {1, 2} and value['b'] == b'\\x00\\xff'
    assert str(value['f']) == '1/3' and value['big'] == 3 ** 9000
    assert value['p'] == (1, 2) and value['p'].x == 1 and isinstance(value['p'], main.Point)
    assert main.card() == Card(12, 'hearts') and main.card().suit == 'hearts'
    assert {main.card(), main.card()} == {main.card()}
    assert main.color() == Color.BLUE and main.color() is Color.BLUE and Color.RED.value == 1

def test_state_lives_between_tests_1():
    assert main.count() == 1

def test_state_lives_between_tests_2():
    assert main.count() == 2 and main.COUNT == 2

def test_output(capsys):
    greet('Ada')
    assert capsys.readouterr().out == 'Hello, Ada\\n'

def test_input(monkeypatch):
    monkeypatch.setattr('builtins.input', lambda prompt='': '21')
    assert main.ask() == 42
    monkeypatch.setattr('sys.stdin', io.StringIO('a\\nb\\n'))
    assert main.read_all() == ['a', 'b']

def test_mutation():
    values = [3, 1, 2]
    main.sort_in_place(values)
    assert values == [1, 2, 3]
    counts = {}
    main.tally(['a', 'b', 'a'], counts)
    assert counts == {'a': 2, 'b': 1}

def test_functions_cross():
    assert main.apply(lambda v: v * 10, [1, 2]) == [10, 20]
    assert main.apply(len, ['ab', 'c']) == [2, 1]
    assert main.apply(str.upper, ['a']) == ['A']
    assert list(main.squares(4)) == [0, 1, 4, 9]

def test_assignment_classes_cross_by_state():
    head = Node(1, Node(2))
    assert main.length(head) == 2
    main.append(head, 3)
    assert head.next.next.value == 3 and main.length(head) == 3

def test_streams():
    out = io.StringIO()
    main.write_to(out)
    assert out.getvalue() == 'written\\n'

def test_monkeypatch_the_module(monkeypatch):
    monkeypatch.setattr(main, 'COUNT', 100)
    assert main.count() == 101
`;
    const node = `class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next
`;
    const result = await runTestCase(context({ 'main.py': submission }, { 'node.py': node }), spec(module));
    expect(result.items.filter((i) => i.outcome !== 'passed').map((i) => [i.name, i.message])).toEqual([]);
    expect(result).toMatchObject({ status: 'Correct', points: 10 });
  });

  it('tells a test file that cannot run what is wrong with it, first line first', async () => {
    const cases: [Record<string, string>, string, RegExp | string, string?][] = [
      [
        { 'main.py': ADD },
        'def test_x(:\n    pass\n',
        /^test_main\.py, line 1: invalid syntax\n {4}def test_x\(:/,
      ],
      [{ 'main.py': ADD }, 'def helper():\n    pass\n', 'No tests were collected from test_main.py.'],
      [
        { 'main.py': ADD },
        'import main\nLIMIT = undefined_name\ndef test_x():\n    pass\n',
        /^NameError: name 'undefined_name' is not defined\n\(raised by test_main\.py when it was imported, test_main\.py, line 2\)/,
      ],
      [
        { 'main.py': ADD },
        'import pytest\n@pytest.mark.points(1.5)\ndef test_x():\n    pass\n',
        'test_x: @points(n) takes a whole number from 0 to 1000.',
      ],
      [
        { 'main.py': ADD },
        'from solution import add\ndef test_x():\n    pass\n',
        /^test_main\.py imports the module 'solution' \(test_main\.py, line 1\), which is neither a file of the submission \(main\.py\) nor one of the assignment's files/,
      ],
      [
        { 'main.py': ADD },
        'from main import sub\ndef test_x():\n    pass\n',
        'test_main.py imports sub from main.py (test_main.py, line 1), but main.py does not define it.',
      ],
      [
        { 'main.py': 'x = 1\nraise RuntimeError("boom at import")\n' },
        'import main\ndef test_x():\n    pass\n',
        /^RuntimeError: boom at import\n\(raised by main\.py when the tests imported it, main\.py, line 2\)\n\n {2}File "main\.py", line 2/,
      ],
      [
        { 'main.py': 'n = int(input())\n' },
        'import main\ndef test_x():\n    pass\n',
        /^main\.py calls input\(\) when it is imported \(main\.py, line 1\)\. Code under test must not read input at import/,
      ],
      [
        { 'main.py': 'import os\nos._exit(0)\n' },
        'import main\ndef test_x():\n    pass\n',
        /^main\.py ended its process while it was being imported \(exit code 0\)/,
      ],
      [
        { 'main.py': 'while True:\n    pass\n' },
        'import main\ndef test_x():\n    pass\n',
        /^main\.py did not finish being imported: Stopped: importing main\.py used more than 500 ms of CPU time/,
        'time_limit',
      ],
    ];
    const results = await Promise.all(
      cases.map(([files, module]) => runTestCase(context(files), spec(module, { timeLimitMs: 500 }))),
    );
    results.forEach((result, index) => {
      const [, , message, reason] = cases[index]!;
      expect(result).toMatchObject({
        status: 'Wrong',
        reason: reason ?? 'collection_error',
        points: 0,
        items: [],
      });
      if (typeof message === 'string') expect(result.checkerMessage).toBe(message);
      else expect(result.checkerMessage).toMatch(message);
    });
  });

  it('holds each test to its own limit, set by a marker, on the submission’s process only', async () => {
    const module = `import pytest
from kadai import time_limit
import main

def test_teacher_work_is_free():
    total = sum(i * i for i in range(3 * 10 ** 6))
    assert main.spin(0.05) == 'done' and total > 0

def test_default_limit():
    main.spin(0.8)

@time_limit(2500)
def test_own_limit():
    assert main.spin(0.8) == 'done'

@pytest.mark.timeout(0.3)
def test_pytest_timeout():
    main.spin(0.6)

def test_sleeps_too_long():
    main.nap(3)

def test_dies():
    main.die()

def test_after_all_that():
    assert main.spin(0.01) == 'done'
`;
    const student = `import os, time
def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return 'done'
def nap(seconds):
    time.sleep(seconds)
def die():
    os._exit(9)
`;
    const result = await runTestCase(context({ 'main.py': student }), spec(module, { timeLimitMs: 500 }));
    expect(name(result.items)).toEqual([
      ['test_teacher_work_is_free', 'passed'],
      ['test_default_limit', 'time_limit'],
      ['test_own_limit', 'passed'],
      ['test_pytest_timeout', 'time_limit'],
      ['test_sleeps_too_long', 'time_limit'],
      ['test_dies', 'error'],
      ['test_after_all_that', 'passed'],
    ]);
    expect(result.items[3]!.message).toBe('Stopped: this test used more than 300 ms of CPU time, its limit.');
    expect(result.items[4]!.message).toBe(
      'Stopped: this test waited or slept for more than 1500 ms (its CPU time limit is 500 ms).',
    );
    expect(result.items[5]!.message).toMatch(
      /^The process of the submission ended during this test \(exit code 9\)/,
    );
  });

  it('reports tests that never call the submission, first or last, whatever its results wait for', async () => {
    const module = `from main import add
def test_first():
    assert 1 + 1 == 2
${Array.from({ length: 10 }, (_, i) => `def test_call_${i}():\n    assert add(${i}, 1) == ${i + 1}\n`).join('')}
def test_last():
    assert 2 + 2 == 4
`;
    const result = await runTestCase(context({ 'main.py': ADD }), spec(module));
    expect(result.items).toHaveLength(12);
    expect(result.items.every((i) => i.outcome === 'passed')).toBe(true);
    expect(result).toMatchObject({ status: 'Correct', points: 10 });
  });

  it('runs out of memory in one test and goes on with a fresh process', async () => {
    const module = `import main
def test_greedy():
    main.greedy()
def test_then():
    assert main.small() == 3
`;
    const student = `def greedy():
    return [0] * (10 ** 9)
def small():
    return 3
`;
    const result = await runTestCase(context({ 'main.py': student }), spec(module, { memoryLimitMb: 64 }));
    expect(name(result.items)).toEqual([
      ['test_greedy', 'error'],
      ['test_then', 'passed'],
    ]);
    expect(result.items[0]!.message).toMatch(/^The submission ran out of memory \(its limit is 64 MB\)\.\n/);
    expect(result).toMatchObject({ status: 'Wrong', reason: 'memory_limit', points: 5 });
  });

  it('takes 500 tests in one run, within the text caps', async () => {
    const module = `import pytest
@pytest.mark.parametrize("n", range(500))
def test_n(n):
    print("x" * 40000)
    assert n % 100 != 7, "y" * 40000
`;
    const result = await runTestCase(context({ 'main.py': ADD }), spec(module));
    expect(result.items).toHaveLength(500);
    expect(result.items.filter((i) => i.outcome === 'failed')).toHaveLength(5);
    const texts = result.items.reduce((sum, i) => sum + i.message.length + i.output.length, 0);
    expect(texts).toBeLessThan(256 * 1024 + 500 * 2 * 600);
    expect(result.items[0]!.output.length).toBeLessThanOrEqual(16 * 1024 + 20);
    expect(result.points).toBe(Math.floor((10 * 495) / 500));
  });
});

describe('the result channel', () => {
  const line = (record: object) => JSON.stringify(record);
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('skips lines that are not records, keeps the last of a kind, and nothing after done', () => {
    const result = { message: '', output: '', cpu_ms: 1, memory: false };
    const report = readChannel(
      bytes(
        [
          'not json',
          line({ t: 'ready' }),
          line({ t: 'collected', items: [{ id: 'a', points: 1, limit: 100 }] }),
          line({ t: 'result', id: 'a', outcome: 'failed', ...result }),
          line({ t: 'result', id: 'a', outcome: 'bogus', ...result }),
          line({ t: 'done', exit: 1 }),
          line({ t: 'result', id: 'a', outcome: 'passed', ...result }),
        ].join('\n'),
      ),
    );
    expect(report.ready).toBe(true);
    expect(report.results.get('a')?.outcome).toBe('failed');
    expect(report.done).toEqual({ exit: 1 });
  });

  it('scales shares: exact at full marks, rounded down otherwise, 0 without shares', () => {
    expect(scaledPoints(10, 20, 20)).toBe(10);
    expect(scaledPoints(10, 19, 20)).toBe(9);
    expect(scaledPoints(10, 0, 0)).toBe(0);
    expect(scaledPoints(20, 7, 20)).toBe(7);
  });
});
