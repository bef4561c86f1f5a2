// The grading pipeline end to end on a real database and the real sandbox: enqueueGrading → pg-boss →
// the in-process grader → bubblewrap → evaluations and score. Data is inserted with SQL, apart from
// the HTTP routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  addTestCase,
  createGradingWorld,
  createSubmission,
  evaluationsOf,
  submissionState,
  waitForSubmission,
} from './grading-fixtures.ts';

const ADD = 'a, b = map(int, input().split())\nprint(a + b)\n';

describe('grading (in-process grader, real sandbox)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ grader: true });
  });
  afterAll(() => t.close());

  const grade = async (id: number) => {
    await enqueueGrading(t.ctx, [id]);
    return waitForSubmission(t, id);
  };

  it('grades io tests and stores every evaluation and the score', async () => {
    const world = await createGradingWorld(t, [
      { stdin: '2 3\n', expected_stdout: '5\n', points: 2 },
      { stdin: '10 -4\n', expected_stdout: '6\n', points: 3 },
      { stdin: '1 1\n', expected_stdout: '3\n', points: 5 },
    ]);
    const id = await createSubmission(t, world, { 'main.py': ADD });
    const state = await grade(id);
    expect(state).toMatchObject({
      status: 'Completed',
      score: 5,
      max_score: 10,
      message: '',
      grading_attempts: 1,
    });
    expect(state.grader_host).toBe(t.grader!.id);
    const evaluations = await evaluationsOf(t, id);
    expect(evaluations.map((e) => [e.test_case_id, e.status, e.points, e.reason])).toEqual([
      [world.testCaseIds[0], 'Correct', 2, null],
      [world.testCaseIds[1], 'Correct', 3, null],
      [world.testCaseIds[2], 'Wrong', 0, 'wrong_answer'],
    ]);
    expect(evaluations[2]!.stdout).toBe('2\n');
  });

  it('compares exactly, by tokens or numerically as each test says', async () => {
    const world = await createGradingWorld(t, [
      { expected_stdout: '1 2\n', comparison: 'exact' },
      { expected_stdout: '1 2', comparison: 'whitespace' },
      { expected_stdout: '0.333333 x', comparison: 'numeric', tolerance: 1e-5 },
      { expected_stdout: '0.3 x', comparison: 'numeric', tolerance: 1e-5 },
    ]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1, 2)\n' });
    await grade(id);
    expect((await evaluationsOf(t, id)).map((e) => e.status)).toEqual([
      'Correct',
      'Correct',
      'Wrong',
      'Wrong',
    ]);
    const second = await createSubmission(t, world, { 'main.py': 'print(" 1   2 ")\n' });
    await grade(second);
    expect((await evaluationsOf(t, second)).map((e) => e.status)).toEqual([
      'Wrong',
      'Correct',
      'Wrong',
      'Wrong',
    ]);
    const third = await createSubmission(t, world, { 'main.py': 'print(1/3, "x")\n' });
    await grade(third);
    expect((await evaluationsOf(t, third)).map((e) => e.status)).toEqual([
      'Wrong',
      'Wrong',
      'Correct',
      'Wrong',
    ]);
  });

  it('runs a program of several files that import each other', async () => {
    const world = await createGradingWorld(t, [{ stdin: '4', expected_stdout: '16' }]);
    const id = await createSubmission(t, world, {
      'main.py': 'from helper import square\nprint(square(int(input())))\n',
      'helper.py': 'def square(x):\n    return x * x\n',
    });
    expect(await grade(id)).toMatchObject({ status: 'Completed', score: 1 });
  });

  it('is InvalidFormat, with the file and line, for a syntax error — and runs no test', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }, { expected_stdout: '2' }]);
    const id = await createSubmission(t, world, {
      'main.py': 'import helper\nprint(helper.one())\n',
      'helper.py': 'def one():\n    return 1\n\ndef two(:\n    return 2\n',
    });
    const state = await grade(id);
    expect(state.status).toBe('InvalidFormat');
    expect(state.message).toMatch(/^Syntax error in helper\.py, line 4: /);
    expect(state).toMatchObject({ score: 0, max_score: 2 });
    expect(await evaluationsOf(t, id)).toEqual([]);
  });

  it('is InvalidFormat for a missing required file or a file type that is not allowed', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }], { required_files: ['helper.py'] });
    const missing = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    expect(await grade(missing)).toMatchObject({
      status: 'InvalidFormat',
      message: 'Required file missing: helper.py.',
    });
    const noEntry = await createSubmission(t, world, { 'helper.py': 'print(1)\n', 'other.py': '' });
    expect((await grade(noEntry)).message).toBe('main.py is missing: it is the program the tests run.');
    const exe = await createSubmission(t, world, { 'main.py': '', 'helper.py': '', 'tool.sh': 'rm -rf /' });
    expect((await grade(exe)).message).toMatch(/^tool\.sh: files ending in \.sh are not accepted/);
    expect(await evaluationsOf(t, exe)).toEqual([]);
  });

  it('stops a CPU loop and a sleeper at the time limit', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1', time_limit_ms: 500 }]);
    const loop = await createSubmission(t, world, { 'main.py': 'while True:\n    pass\n' });
    const sleeper = await createSubmission(t, world, {
      'main.py': 'import time\ntime.sleep(30)\nprint(1)\n',
    });
    await enqueueGrading(t.ctx, [loop, sleeper]);
    for (const id of [loop, sleeper]) {
      expect((await waitForSubmission(t, id)).status).toBe('Completed');
      expect(await evaluationsOf(t, id)).toMatchObject([
        { status: 'Wrong', reason: 'time_limit', points: 0 },
      ]);
    }
  });

  it('stops a memory hog at the memory limit', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: 'done', memory_limit_mb: 64 }]);
    const id = await createSubmission(t, world, {
      'main.py': 'x = bytearray(300 * 1024 * 1024)\nprint("done")\n',
    });
    await grade(id);
    expect(await evaluationsOf(t, id)).toMatchObject([{ status: 'Wrong', reason: 'memory_limit' }]);
  });

  it('records a crash as runtime_error and an output flood as output_limit', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const crash = await createSubmission(t, world, { 'main.py': 'raise ValueError("boom")\n' });
    await grade(crash);
    const [crashed] = await evaluationsOf(t, crash);
    expect(crashed).toMatchObject({ status: 'Wrong', reason: 'runtime_error', exit_code: 1 });
    expect(crashed!.stderr).toMatch(/ValueError: boom/);
    const flood = await createSubmission(t, world, { 'main.py': 'while True:\n    print("x" * 10000)\n' });
    await grade(flood);
    const [flooded] = await evaluationsOf(t, flood);
    expect(flooded).toMatchObject({ status: 'Wrong', reason: 'output_limit' });
    expect(flooded!.stdout.length).toBeLessThanOrEqual(64 * 1024 + 20);
  });

  it('stores output PostgreSQL cannot hold as text (NUL) without failing', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: 'a b', comparison: 'exact' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print("a\\0b")\n' });
    expect((await grade(id)).status).toBe('Completed');
    expect((await evaluationsOf(t, id))[0]!.stdout).toBe('a\uFFFDb\n');
  });

  it('gives the program the assignment files beside its own', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '6' }]);
    const key = `assignments/${world.assignmentId}/numbers`;
    await t.ctx.storage.put(key, Buffer.from('1\n2\n3\n'), 'text/plain');
    await t.database.query(
      `INSERT INTO assignment_files (assignment_id, filename, storage_key, size, content_type)
       VALUES ($1, 'numbers.txt', $2, 6, 'text/plain')`,
      [world.assignmentId, key],
    );
    const id = await createSubmission(t, world, {
      'main.py': 'print(sum(int(line) for line in open("numbers.txt")))\n',
    });
    expect(await grade(id)).toMatchObject({ status: 'Completed', score: 1 });
  });

  it('re-grades against the current test cases and drops results of removed ones', async () => {
    const world = await createGradingWorld(t, [
      { stdin: '1 1', expected_stdout: '2' },
      { stdin: '2 2', expected_stdout: '5' },
    ]);
    const id = await createSubmission(t, world, { 'main.py': ADD });
    expect(await grade(id)).toMatchObject({ score: 1, max_score: 2 });
    await t.database.query('UPDATE test_cases SET expected_stdout = $2, points = 4 WHERE id = $1', [
      world.testCaseIds[1],
      '4',
    ]);
    await t.database.query('DELETE FROM test_cases WHERE id = $1', [world.testCaseIds[0]]);
    const added = await addTestCase(
      t,
      world.assignmentId,
      { stdin: '0 7', expected_stdout: '7', points: 2 },
      5,
    );
    expect(await grade(id)).toMatchObject({
      status: 'Completed',
      score: 6,
      max_score: 6,
      grading_attempts: 2,
    });
    expect((await evaluationsOf(t, id)).map((e) => e.test_case_id)).toEqual([world.testCaseIds[1], added]);
  });

  it('does not grade a canceled submission', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    await t.database.query(
      `UPDATE submissions SET status = 'Canceled', message = 'Canceled by staff.' WHERE id = $1`,
      [id],
    );
    await t.ctx.jobs.send('grading', { submissionId: id });
    // A later submission queued after it is graded, so the canceled one's job has run by then.
    const later = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    await grade(later);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await submissionState(t, id)).toMatchObject({
      status: 'Canceled',
      grading_attempts: 0,
      score: null,
    });
    expect(await evaluationsOf(t, id)).toEqual([]);
  });

  it('keeps the grader in grader_hosts with its heartbeat', async () => {
    const { rows } = await t.database.query(
      `SELECT sandbox_ok, concurrency, graded, last_seen_at > now() - interval '2 seconds' AS fresh
         FROM grader_hosts WHERE id = $1`,
      [t.grader!.id],
    );
    expect(rows[0]).toMatchObject({ sandbox_ok: true, concurrency: 2, fresh: true });
    expect(Number(rows[0]!.graded)).toBeGreaterThan(5);
  });
});
