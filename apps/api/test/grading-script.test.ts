// Script tests: the student's program runs in one sandbox, the instructor's check script judges it in a
// second one that sees only /judge (read-only) — never the student's process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  createGradingWorld,
  createSubmission,
  evaluationsOf,
  waitForSubmission,
  type TestCaseFields,
} from './grading-fixtures.ts';

const script = (check_script: string, fields: TestCaseFields = {}): TestCaseFields => ({
  kind: 'script',
  check_script,
  ...fields,
});

const CHECK_STDOUT = `
out = open('/judge/stdout').read()
assert out.strip() == 'hello', 'expected hello, got ' + repr(out.strip())
print('greeting ok')
`;

const CHECK_FILES = `
import json, pathlib
result = json.load(open('/judge/result.json'))
assert result['exit_code'] == 0 and result['limit'] is None, result
made = pathlib.Path('/judge/files/out/squares.txt')
assert made.is_file(), 'out/squares.txt was not written'
assert made.read_text().split() == [str(i * i) for i in range(1, 6)], 'wrong squares'
assert pathlib.Path('/judge/submission/main.py').read_text().startswith('import os'), 'source not shown'
assert not pathlib.Path('/judge/files/main.py').exists(), 'unchanged input files are left out'
`;

const CHECK_IMPORT = `
lines = open('/judge/stdout').read().split()
assert lines == ['5', '-1', '0'], 'add() returned ' + ' '.join(lines)
`;

const DRIVER = `
from main import add
for a, b in [(2, 3), (-4, 3), (0, 0)]:
    print(add(a, b))
`;

describe('script tests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ grader: true });
  });
  afterAll(() => t.close());

  const grade = async (id: number) => {
    await enqueueGrading(t.ctx, [id]);
    return waitForSubmission(t, id);
  };

  it('judges the program by its stdout, with the checker’s words as the message', async () => {
    const world = await createGradingWorld(t, [script(CHECK_STDOUT, { points: 4 })]);
    const right = await createSubmission(t, world, { 'main.py': 'print("hello")\n' });
    expect(await grade(right)).toMatchObject({ status: 'Completed', score: 4 });
    expect(await evaluationsOf(t, right)).toMatchObject([
      { status: 'Correct', checker_message: 'greeting ok' },
    ]);
    const wrong = await createSubmission(t, world, { 'main.py': 'print("bye")\n' });
    expect(await grade(wrong)).toMatchObject({ status: 'Completed', score: 0 });
    expect(await evaluationsOf(t, wrong)).toMatchObject([
      { status: 'Wrong', reason: 'wrong_answer', checker_message: "expected hello, got 'bye'" },
    ]);
  });

  it('lets the checker inspect the files the program wrote, its exit and its source', async () => {
    const world = await createGradingWorld(t, [script(CHECK_FILES)]);
    const id = await createSubmission(t, world, {
      'main.py':
        'import os\nos.makedirs("out", exist_ok=True)\n' +
        'with open("out/squares.txt", "w") as f:\n    f.write(" ".join(str(i * i) for i in range(1, 6)))\n',
    });
    expect(await grade(id)).toMatchObject({ status: 'Completed', score: 1 });
    const forgot = await createSubmission(t, world, { 'main.py': 'import os\nprint("nothing written")\n' });
    await grade(forgot);
    expect(await evaluationsOf(t, forgot)).toMatchObject([
      { status: 'Wrong', checker_message: 'out/squares.txt was not written' },
    ]);
  });

  it('runs a driver that imports the student’s module instead of the entry file', async () => {
    const world = await createGradingWorld(t, [script(CHECK_IMPORT, { driver: DRIVER })]);
    const id = await createSubmission(t, world, {
      'main.py':
        'def add(a, b):\n    return a + b\n\nif __name__ == "__main__":\n    print(add(int(input()), 1))\n',
    });
    expect(await grade(id)).toMatchObject({ status: 'Completed', score: 1 });
    const off = await createSubmission(t, world, { 'main.py': 'def add(a, b):\n    return a - b\n' });
    await grade(off);
    expect(await evaluationsOf(t, off)).toMatchObject([
      { status: 'Wrong', checker_message: 'add() returned -1 -7 0' },
    ]);
  });

  it('judges a program that tampers with verdicts and processes as Wrong', async () => {
    const world = await createGradingWorld(t, [script(CHECK_STDOUT)]);
    const id = await createSubmission(t, world, {
      'main.py': `
import json, os, signal, sys
fake = json.dumps({'exit_code': 0, 'signal': None, 'limit': None, 'status': 'Correct'})
# Fake verdicts wherever a checker might look, and a fake checker and stdout beside the program.
for name in ['result.json', 'stdout', 'verdict.json', 'check.py', '_driver.py']:
    with open(name, 'w') as f:
        f.write(fake if name != 'stdout' else 'hello\\n')
for path in ['/judge/result.json', '/judge/stdout', '/tmp/../judge/stdout']:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write('hello\\n')
    except OSError:
        pass
print('bye')
sys.stdout.flush()
# Kill every process it can see — the grader, the checker — then itself.
for pid in range(1, 200):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
os.kill(-1, signal.SIGKILL)
`,
    });
    expect(await grade(id)).toMatchObject({ status: 'Completed', score: 0 });
    const [evaluation] = await evaluationsOf(t, id);
    expect(evaluation).toMatchObject({ status: 'Wrong', reason: 'runtime_error' });
    expect(evaluation!.checker_message).toMatch(/expected hello, got 'bye'/);
    // The grader (this process) is alive and still grading.
    const next = await createSubmission(t, world, { 'main.py': 'print("hello")\n' });
    expect(await grade(next)).toMatchObject({ status: 'Completed', score: 1 });
  });

  it('blames the checker, not the student, when the check script breaks', async () => {
    const world = await createGradingWorld(t, [
      script('data = open("/judge/stdout").read()\nprint(1 / 0)\n'),
    ]);
    const id = await createSubmission(t, world, { 'main.py': 'print("hello")\n' });
    await grade(id);
    const [evaluation] = await evaluationsOf(t, id);
    expect(evaluation).toMatchObject({ status: 'Wrong', reason: 'checker_error' });
    expect(evaluation!.checker_message).toMatch(
      /^The check script exited with code 70\.[\s\S]*ZeroDivisionError/,
    );
  });

  it('ends a script test at the program’s time limit without running the checker', async () => {
    const world = await createGradingWorld(t, [script('print("checker ran")\n', { time_limit_ms: 300 })]);
    const id = await createSubmission(t, world, { 'main.py': 'while True:\n    pass\n' });
    await grade(id);
    expect(await evaluationsOf(t, id)).toMatchObject([
      { status: 'Wrong', reason: 'time_limit', checker_message: '' },
    ]);
  });
});
