import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEST_CASES, TestCase, TestCaseList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import {
  assignmentCourses,
  assignments,
  submissionFiles,
  submissions,
  testCases,
} from '../../db/schema-assignments.ts';
import { hoursFromNow, insertAssignment, insertTestCase } from './testing.ts';

describe('test cases', () => {
  let t: TestApp;
  let course: { id: number };
  let editor: string;
  let student: string;
  let editorId: number;

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t);
    const [e, s] = await Promise.all([createUser(t), createUser(t)]);
    await addEditor(t, course.id, e!.id);
    await addStudent(t, course.id, s!.id);
    editor = await tokenFor(t, e!);
    student = await tokenFor(t, s!);
    editorId = e!.id;
  });
  afterAll(() => t.close());

  const newAssignment = async (referenceSolution = '') => {
    const a = await insertAssignment(t, { courses: [{ courseId: course.id }], referenceSolution });
    return { id: a.id, url: `/api/Assignment/${a.id}/${course.id}/TestCase/` };
  };
  const create = async (url: string, body: Record<string, unknown>) => {
    const res = await call(t, 'POST', url, { token: editor, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return TestCase.parse(res.body);
  };

  it('creates test cases with defaults, one after another', async () => {
    const a = await newAssignment();
    const first = await create(a.url, { name: 'Adds', stdin: '1 2\n', expected_stdout: '3\n' });
    expect(first).toMatchObject({
      view: 'editor',
      assignment_id: a.id,
      position: 0,
      kind: 'io',
      points: 1,
      visibility: 'visible',
      comparison: 'whitespace',
      time_limit_ms: 2000,
      memory_limit_mb: 256,
    });
    const second = await create(a.url, {
      name: 'Script',
      kind: 'script',
      check_script: 'import sys\nsys.exit(0)\n',
    });
    expect(second.position).toBe(1);
    const read = await call(t, 'GET', `${a.url}${first.id}/`, { token: editor });
    expect(read.body).toEqual(first);
  });

  it('refuses bad input with field errors', async () => {
    const a = await newAssignment();
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', kind: 'unit' }, 'kind'],
      [{ name: 'x', points: -1 }, 'points'],
      [{ name: 'x', points: 'one' }, 'points'],
      [{ name: 'x', visibility: 'secret' }, 'visibility'],
      [{ name: 'x', comparison: 'fuzzy' }, 'comparison'],
      [{ name: 'x', time_limit_ms: 50 }, 'time_limit_ms'],
      [{ name: 'x', memory_limit_mb: 4096 }, 'memory_limit_mb'],
      [{ name: 'x', kind: 'script' }, 'check_script'],
      [{ name: 'x', kind: 'script', check_script: '   ' }, 'check_script'],
      [{ name: 'x', stdin: 'x'.repeat(1024 * 1024 + 1) }, 'stdin'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t, 'POST', a.url, { token: editor, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json[field], JSON.stringify(res.body).slice(0, 200)).toBeDefined();
    }
    expect((await call(t, 'POST', a.url, { token: editor, body: { name: 'x', owner: 1 } })).status).toBe(400);
    expect((await call(t, 'POST', a.url, { token: student, body: { name: 'x' } })).status).toBe(403);
  });

  it('changes a test: PATCH the fields given, PUT the whole test keeping its place', async () => {
    const a = await newAssignment();
    await create(a.url, { name: 'First' });
    const test = await create(a.url, { name: 'Second', stdin: 'in', expected_stdout: 'out', points: 4 });
    const url = `${a.url}${test.id}/`;
    const patched = await call(t, 'PATCH', url, { token: editor, body: { points: 7, visibility: 'hidden' } });
    expect(patched.json).toMatchObject({ points: 7, visibility: 'hidden', stdin: 'in', name: 'Second' });
    const toScript = await call(t, 'PATCH', url, { token: editor, body: { kind: 'script' } });
    expect(toScript.status).toBe(400);
    expect(toScript.json.check_script).toBeDefined();
    const put = await call(t, 'PUT', url, { token: editor, body: { name: 'Replaced' } });
    expect(put.json).toMatchObject({
      name: 'Replaced',
      points: 1,
      visibility: 'visible',
      stdin: '',
      position: 1,
    });
    expect((await call(t, 'PATCH', url, { token: editor, body: { points: -5 } })).status).toBe(400);
    expect((await call(t, 'PATCH', `${a.url}999999/`, { token: editor, body: { points: 1 } })).status).toBe(
      404,
    );
    const other = await newAssignment();
    expect((await call(t, 'GET', `${other.url}${test.id}/`, { token: editor })).status).toBe(404);
    expect((await call(t, 'DELETE', `${other.url}${test.id}/`, { token: editor })).status).toBe(404);
    expect((await call(t, 'DELETE', url, { token: editor })).status).toBe(204);
    expect((await call(t, 'GET', url, { token: editor })).status).toBe(404);
  });

  it(`refuses a test case beyond ${MAX_TEST_CASES}`, async () => {
    const a = await newAssignment();
    await t.ctx.db.insert(testCases).values(
      Array.from({ length: MAX_TEST_CASES }, (_, i) => ({
        assignmentId: a.id,
        name: `T${i}`,
        kind: 'io' as const,
      })),
    );
    const res = await call(t, 'POST', a.url, { token: editor, body: { name: 'One too many' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('too_many_test_cases');
  });

  it('never sends students a hidden test’s input, output, driver or check script', async () => {
    const a = await newAssignment();
    await insertTestCase(t, a.id, {
      name: 'open',
      visibility: 'visible',
      stdin: 'VISIBLE_IN',
      expectedStdout: 'VISIBLE_OUT',
    });
    const hidden = await insertTestCase(t, a.id, {
      name: 'secret',
      visibility: 'hidden',
      stdin: 'HIDDEN_IN',
      expectedStdout: 'HIDDEN_OUT',
    });
    await insertTestCase(t, a.id, {
      name: 'later',
      visibility: 'after_due',
      stdin: 'LATER_IN',
      expectedStdout: 'LATER_OUT',
    });
    const script = await insertTestCase(t, a.id, {
      name: 'judge',
      kind: 'script',
      visibility: 'visible',
      driver: 'DRIVER_SECRET',
      checkScript: 'CHECK_SECRET',
    });
    const list = await call(t, 'GET', a.url, { token: student });
    expect(list.status).toBe(200);
    const raw = JSON.stringify(list.body);
    expect(raw).toContain('VISIBLE_IN');
    for (const secret of [
      'HIDDEN_IN',
      'HIDDEN_OUT',
      'LATER_IN',
      'LATER_OUT',
      'DRIVER_SECRET',
      'CHECK_SECRET',
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toContain('check_script');
    expect(raw).not.toContain('"driver"');
    const parsed = TestCaseList.parse(list.body);
    expect(parsed.results.map((r) => (r.view === 'student' ? r.revealed : null))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    for (const id of [hidden.id, script.id]) {
      const one = JSON.stringify((await call(t, 'GET', `${a.url}${id}/`, { token: student })).body);
      for (const secret of ['HIDDEN_IN', 'HIDDEN_OUT', 'DRIVER_SECRET', 'CHECK_SECRET'])
        expect(one).not.toContain(secret);
    }
    const asEditor = JSON.stringify((await call(t, 'GET', a.url, { token: editor })).body);
    for (const secret of ['HIDDEN_IN', 'LATER_OUT', 'DRIVER_SECRET', 'CHECK_SECRET'])
      expect(asEditor).toContain(secret);

    // Past the due date but inside the late window: still concealed, since students may still submit.
    await t.ctx.db
      .update(assignmentCourses)
      .set({ opensAt: hoursFromNow(-48), dueAt: hoursFromNow(-1), lateUntil: hoursFromNow(1) })
      .where(eq(assignmentCourses.assignmentId, a.id));
    const inLateWindow = JSON.stringify((await call(t, 'GET', a.url, { token: student })).body);
    expect(inLateWindow).not.toContain('LATER_IN');
    expect(inLateWindow).not.toContain('LATER_OUT');

    // Once submissions close in this course, after_due tests are revealed; hidden ones never are.
    await t.ctx.db
      .update(assignmentCourses)
      .set({ opensAt: hoursFromNow(-48), dueAt: hoursFromNow(-1), lateUntil: null })
      .where(eq(assignmentCourses.assignmentId, a.id));
    const afterDue = JSON.stringify((await call(t, 'GET', a.url, { token: student })).body);
    expect(afterDue).toContain('LATER_IN');
    expect(afterDue).toContain('LATER_OUT');
    expect(afterDue).not.toContain('HIDDEN_IN');
    expect(afterDue).not.toContain('CHECK_SECRET');
  });

  it('reorders with every id once', async () => {
    const a = await newAssignment();
    const [x, y, z] = [
      await create(a.url, { name: 'x' }),
      await create(a.url, { name: 'y' }),
      await create(a.url, { name: 'z' }),
    ];
    const other = await newAssignment();
    const foreign = await create(other.url, { name: 'w' });
    const reorder = (ids: unknown) => call(t, 'POST', `${a.url}reorder/`, { token: editor, body: { ids } });
    for (const ids of [
      [],
      [z!.id, x!.id],
      [z!.id, x!.id, x!.id],
      [z!.id, x!.id, foreign.id],
      'x',
      [z!.id, x!.id, y!.id, foreign.id],
    ]) {
      expect((await reorder(ids)).status, JSON.stringify(ids)).toBe(400);
    }
    const res = await reorder([z!.id, x!.id, y!.id]);
    expect(res.status).toBe(200);
    const list = TestCaseList.parse(res.body);
    expect(list.results.map((r) => [r.name, r.position])).toEqual([
      ['z', 0],
      ['x', 1],
      ['y', 2],
    ]);
    expect(
      TestCaseList.parse((await call(t, 'GET', a.url, { token: student })).body).results.map((r) => r.name),
    ).toEqual(['z', 'x', 'y']);
  });

  describe('run-reference', () => {
    it('saves the code as the reference solution and queues an is_reference submission', async () => {
      const a = await newAssignment();
      await create(a.url, { name: 'Adds' });
      const code = 'print(sum(map(int, input().split())))\n';
      const res = await call(t, 'POST', `${a.url}run-reference/`, { token: editor, body: { code } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const id = Number(res.json.submission_id);
      const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, id));
      expect(row).toMatchObject({
        assignmentId: a.id,
        courseId: course.id,
        userId: editorId,
        isReference: true,
        status: 'Scheduled',
      });
      expect(row!.queuedAt).not.toBeNull();
      const files = await t.ctx.db.select().from(submissionFiles).where(eq(submissionFiles.submissionId, id));
      expect(files.map((f) => [f.filename, f.content.toString('utf8')])).toEqual([['main.py', code]]);
      const [saved] = await t.ctx.db.select().from(assignments).where(eq(assignments.id, a.id));
      expect(saved!.referenceSolution).toBe(code);

      // Without code: the stored reference solution.
      const again = await call(t, 'POST', `${a.url}run-reference/`, { token: editor, body: {} });
      expect(again.status).toBe(202);
      const [file] = await t.ctx.db
        .select()
        .from(submissionFiles)
        .where(eq(submissionFiles.submissionId, Number(again.json.submission_id)));
      expect(file!.content.toString('utf8')).toBe(code);
    });

    it('refuses without a solution, without test cases, bad input and students', async () => {
      const a = await newAssignment();
      const run = (body: unknown, token = editor) =>
        call(t, 'POST', `${a.url}run-reference/`, { token, body });
      const noTests = await run({ code: 'print(1)' });
      expect(noTests.status).toBe(400);
      expect(noTests.json.code).toBe('no_test_cases');
      await create(a.url, { name: 'One' });
      const none = await run({});
      expect(none.status).toBe(400);
      expect(none.json.code).toBe('no_reference_solution');
      const notText = await run({ code: 42 });
      expect(notText.status).toBe(400);
      // The field `code` is reported as `code_field`; `code` stays the error's code.
      expect(notText.json).toMatchObject({ code: 'invalid', code_field: [expect.any(String)] });
      expect((await run({ code: 'x'.repeat(100_001) })).status).toBe(400);
      expect((await run({ code: 'print(1)', extra: true })).status).toBe(400);
      expect((await run({ code: 'print(1)' }, student)).status).toBe(403);
      expect(await t.ctx.db.$count(submissions, eq(submissions.assignmentId, a.id))).toBe(0);
    });
  });
});
