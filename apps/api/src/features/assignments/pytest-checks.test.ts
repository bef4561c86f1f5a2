/**
 * A pytest module checked when it is saved (the real sandbox, in the API process): its tests listed, its
 * points following them until an editor sets them, a module that does not collect saved as a draft that
 * students never see or run, and a reference run counting the tests again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCase, TestCaseList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { insertAssignment } from './testing.ts';

const MODULE = `import pytest
from main import add
from kadai import points

def test_one():
    assert add(1, 1) == 2

@points(2)
@pytest.mark.parametrize('a', [1, 2, 3])
def test_many(a):
    assert add(a, 0) == a
`;
const REFERENCE = 'def add(a, b):\n    return a + b\n';

describe('pytest modules checked when saved', { timeout: 120_000 }, () => {
  let t: TestApp;
  let course: { id: number };
  let editor: string;
  let student: string;

  beforeAll(async () => {
    t = await createTestApp({ grader: true });
    course = await createCourse(t);
    const [e, s] = await Promise.all([createUser(t), createUser(t)]);
    await addEditor(t, course.id, e!.id);
    await addStudent(t, course.id, s!.id);
    editor = await tokenFor(t, e!);
    student = await tokenFor(t, s!);
  });
  afterAll(() => t.close());

  const newAssignment = async (referenceSolution = REFERENCE) => {
    const a = await insertAssignment(t, {
      courses: [{ courseId: course.id }],
      referenceSolution,
    });
    return { id: a.id, url: `/api/Assignment/${a.id}/${course.id}/TestCase/` };
  };
  const editorView = (body: unknown): Extract<TestCase, { view: 'editor' }> => {
    const parsed = TestCase.parse(body);
    if (parsed.view !== 'editor') throw new Error('not the editor view');
    return parsed;
  };
  const save = async (method: 'POST' | 'PATCH' | 'PUT', url: string, body: Record<string, unknown>) => {
    const res = await call(t, method, url, { token: editor, body });
    expect(res.status, JSON.stringify(res.body)).toBe(method === 'POST' ? 201 : 200);
    return editorView(res.body);
  };

  it('lists the tests a new module collects and gives it one point a share', async () => {
    const a = await newAssignment();
    const created = await save('POST', a.url, { name: 'unit', kind: 'pytest', test_code: MODULE });
    expect(created).toMatchObject({ points: 7, points_auto: true, draft: false });
    expect(created.check).toMatchObject({
      status: 'ready',
      against: 'reference',
      message: '',
      tests: [
        { name: 'test_one', points: 1 },
        { name: 'test_many[1]', points: 2 },
        { name: 'test_many[2]', points: 2 },
        { name: 'test_many[3]', points: 2 },
      ],
    });
    // A changed module is checked again and its points follow; points set by hand stay.
    const fewer = await save('PATCH', `${a.url}${created.id}/`, { test_code: MODULE.replace(', 3]', ']') });
    expect(fewer).toMatchObject({ points: 5, points_auto: true });
    const set = await save('PATCH', `${a.url}${created.id}/`, { points: 10 });
    expect(set).toMatchObject({ points: 10, points_auto: false });
    const again = await save('PATCH', `${a.url}${created.id}/`, { test_code: MODULE });
    expect(again).toMatchObject({ points: 10, points_auto: false });
    const back = await save('PATCH', `${a.url}${created.id}/`, { points_auto: true });
    expect(back).toMatchObject({ points: 7, points_auto: true });
    // Points given with points_auto contradict each other.
    const both = await call(t, 'PATCH', `${a.url}${created.id}/`, {
      token: editor,
      body: { points: 3, points_auto: true },
    });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ points: [expect.stringContaining('leave points out')] });
  });

  it('saves a module that does not collect as a draft that students never see, count or run', async () => {
    const a = await newAssignment();
    const good = await save('POST', a.url, { name: 'io', stdin: '1 2', expected_stdout: '3', points: 2 });
    const broken = await save('POST', a.url, {
      name: 'broken',
      kind: 'pytest',
      test_code: 'from solution import add\n\ndef test_x():\n    assert add(1, 1) == 2\n',
    });
    expect(broken).toMatchObject({ draft: true, points_auto: true, check: { status: 'draft' } });
    expect(broken.check).toMatchObject({
      reason: {
        code: 'unknown_module',
        module: 'solution',
        file: 'test_main.py',
        line: 1,
        files: ['main.py'],
      },
      message: '',
    });

    const asStudent = await call(t, 'GET', a.url, { token: student });
    expect(TestCaseList.parse(asStudent.body).results.map((c) => c.id)).toEqual([good.id]);
    expect((await call(t, 'GET', `${a.url}${broken.id}/`, { token: student })).status).toBe(404);
    const detail = await call(t, 'GET', `/api/Assignment/${a.id}/total_score/?course_id=${course.id}`, {
      token: student,
    });
    expect(detail.body).toMatchObject({ total_points: 2 });

    // Fixed, it is part of the assignment again.
    const fixed = await save('PATCH', `${a.url}${broken.id}/`, { test_code: MODULE });
    expect(fixed).toMatchObject({ draft: false, points: 7, check: { status: 'ready' } });
    const now = await call(t, 'GET', `/api/Assignment/${a.id}/total_score/?course_id=${course.id}`, {
      token: student,
    });
    expect(now.body).toMatchObject({ total_points: 9 });
  });

  it('reads a check stored before checks gave reasons with a null reason', async () => {
    const a = await newAssignment();
    const created = await save('POST', a.url, { name: 'unit', kind: 'pytest', test_code: MODULE });
    expect(created.check!.reason).toBeNull();
    await t.database.query(`UPDATE test_cases SET draft = true, pytest_check = $2::jsonb WHERE id = $1`, [
      created.id,
      JSON.stringify({
        status: 'draft',
        message: 'No tests were collected from test_main.py.',
        tests: [],
        against: 'reference',
        checked_at: '2026-05-01T00:00:00.000Z',
      }),
    ]);
    const read = editorView((await call(t, 'GET', `${a.url}${created.id}/`, { token: editor })).body);
    expect(read.check).toMatchObject({
      status: 'draft',
      reason: null,
      message: 'No tests were collected from test_main.py.',
    });
  });

  it('checks against the starter code, or stand-ins, without a reference solution', async () => {
    const a = await newAssignment('');
    const created = await save('POST', a.url, { name: 'unit', kind: 'pytest', test_code: MODULE });
    expect(created.check).toMatchObject({ status: 'ready', against: 'stand-ins' });
    expect(created.points).toBe(7);
  });

  it('counts the tests again when a reference run is graded', async () => {
    const a = await newAssignment();
    const created = await save('POST', a.url, { name: 'unit', kind: 'pytest', test_code: MODULE });
    // Points that follow the tests, out of step (as if the module had changed since it was checked).
    await t.database.query('UPDATE test_cases SET points = 3 WHERE id = $1', [created.id]);
    const run = await call(t, 'POST', `${a.url}run-reference/`, { token: editor, body: {} });
    expect(run.status).toBe(202);
    const submissionId = (run.body as { submission_id: number }).submission_id;
    let score: unknown;
    for (let i = 0; i < 200; i += 1) {
      const { rows } = await t.database.query(
        'SELECT status, score, max_score FROM submissions WHERE id = $1',
        [submissionId],
      );
      score = rows[0];
      if ((rows[0] as { status: string }).status === 'Completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(score).toMatchObject({ status: 'Completed', score: 7, max_score: 7 });
    const read = editorView((await call(t, 'GET', `${a.url}${created.id}/`, { token: editor })).body);
    expect(read.points).toBe(7);
  });
});
