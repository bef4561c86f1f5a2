import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvaluationList, SubmissionDetail, SubmissionList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, tokenFor } from '../../../test/factories.ts';
import { evaluations, submissions } from '../../db/schema-assignments.ts';
import {
  createSubmissionWorld,
  hoursFromNow,
  insertSubmission,
  insertTestCase,
  insertEvaluation,
  quickUser,
  setLink,
  type SubmissionWorld,
} from './testing.ts';

const SECRETS = ['SECRET-INPUT', 'SECRET-EXPECTED', 'SECRET-STDOUT', 'SECRET-STDERR', 'SECRET-CHECKER'];

describe('submission lists, detail and evaluations', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createSubmissionWorld(t);
  });
  afterAll(() => t.close());

  const list = async (url: string, token: string | undefined, query: Record<string, string> = {}) => {
    const res = await call(t, 'GET', url, { token, query });
    expect(res.status).toBe(200);
    return SubmissionList.parse(res.body);
  };

  it('shows students only their own; the course’s managers every submission; never reference runs', async () => {
    const classmateOwn = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.course.id,
      userId: w.users.classmate.id,
    });
    const reference = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.course.id,
      userId: w.users.editor.id,
      isReference: true,
    });
    const query = { course_id: String(w.course.id), limit: '100' };
    const mine = await list('/api/Submission/', w.tokens.student, query);
    expect(mine.results.every((s) => s.user.id === w.users.student.id)).toBe(true);
    expect(mine.count).toBe(3);
    const all = await list('/api/Submission/', w.tokens.editor, query);
    expect(all.results.map((s) => s.id)).toContain(classmateOwn.id);
    expect(all.results.map((s) => s.id)).not.toContain(reference.id);
    expect(all.count).toBe(4);
    expect((await list('/api/Submission/', w.tokens.otherEditor, query)).count).toBe(0);
    // Reference runs on request, to managers only.
    const refs = await list('/api/Submission/', w.tokens.editor, { ...query, is_reference: 'true' });
    expect(refs.results.map((s) => s.id)).toEqual([reference.id]);
    expect((await list('/api/Submission/', w.tokens.student, { ...query, is_reference: 'true' })).count).toBe(
      0,
    );
    const hidden = await call(t, 'GET', `/api/Submission/${reference.id}/`, { token: w.tokens.student });
    expect(hidden.status).toBe(404);

    const byCourse = await list(`/api/Submission/by-course/course/${w.course.id}/`, w.tokens.classmate);
    expect(byCourse.results.map((s) => s.id)).toEqual([classmateOwn.id]);
    expect((await list(`/api/Submission/by-course/course/${w.course.id}/`, w.tokens.staff)).count).toBe(4);
    const other = await call(
      t,
      'GET',
      `/api/Submission/by-course/course/${w.course.id}/user/${w.users.student.id}/`,
      {
        token: w.tokens.classmate,
      },
    );
    expect(other.status).toBe(404);
    const theirs = await list(
      `/api/Submission/by-course/course/${w.course.id}/user/${w.users.classmate.id}/`,
      w.tokens.editor,
    );
    expect(theirs.results.map((s) => s.id)).toEqual([classmateOwn.id]);
  });

  it('filters by status, final, late, assignment and search; orders with ties broken by id', async () => {
    const base = { course_id: String(w.course.id) };
    const completed = await list('/api/Submission/', w.tokens.editor, { ...base, status: 'Completed' });
    expect(completed.results.every((s) => s.status === 'Completed')).toBe(true);
    await t.ctx.db.update(submissions).set({ isLate: true }).execute();
    expect((await list('/api/Submission/', w.tokens.student, { ...base, is_late: 'true' })).count).toBe(3);
    expect((await list('/api/Submission/', w.tokens.student, { ...base, is_final: 'true' })).count).toBe(0);
    expect((await list('/api/Submission/', w.tokens.editor, { ...base, search: 'classm' })).count).toBe(1);
    expect((await list('/api/Submission/', w.tokens.editor, { ...base, search: 'Sana Student' })).count).toBe(
      3,
    );
    expect((await list('/api/Submission/', w.tokens.editor, { ...base, search: '100%' })).count).toBe(0);
    const byScore = await list('/api/Submission/', w.tokens.editor, { ...base, ordering: '-score' });
    expect(byScore.results[0]!.score).toBe(1);
    expect(byScore.results.at(-1)!.score).toBeNull();
    const bad = await call(t, 'GET', '/api/Submission/', {
      token: w.tokens.editor,
      query: { ordering: 'email' },
    });
    expect(bad.status).toBe(400);
    const badLimit = await call(t, 'GET', '/api/Submission/', {
      token: w.tokens.editor,
      query: { limit: '101' },
    });
    expect(badLimit.status).toBe(400);
  });

  it('pages deep lists by keyset: the same rows as offset pages, none twice, none skipped', async () => {
    const student = await quickUser(t);
    await addStudent(t, w.course.id, student.id);
    const token = await tokenFor(t, student);
    // 25 submissions, several sharing one creation instant (ties broken by id).
    const instant = new Date('2026-01-01T00:00:00.123Z');
    for (let i = 0; i < 25; i++) {
      await insertSubmission(t, {
        assignmentId: w.assignment.id,
        courseId: w.course.id,
        userId: student.id,
        createdAt: i % 5 === 0 ? instant : new Date(instant.getTime() + i * 1000),
      });
    }
    const byOffset: number[] = [];
    for (let offset = 0; offset < 25; offset += 7) {
      const pageRows = await list('/api/Submission/', token, { limit: '7', offset: String(offset) });
      byOffset.push(...pageRows.results.map((s) => s.id));
    }
    const byCursor: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string> = { limit: '7' };
      if (cursor) query.cursor = cursor;
      const pageRows = await list('/api/Submission/', token, query);
      expect(pageRows.count).toBe(25);
      byCursor.push(...pageRows.results.map((s) => s.id));
      cursor = pageRows.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(25);

    const wrongOrder = await call(t, 'GET', '/api/Submission/', {
      token,
      query: { cursor: 'MTIzLjQ', ordering: 'id' },
    });
    expect(wrongOrder.status).toBe(400);
    const garbage = await call(t, 'GET', '/api/Submission/', { token, query: { cursor: 'not-a-cursor' } });
    expect([garbage.status, garbage.json.code]).toEqual([400, 'invalid']);
  });

  it('never sends a student the input, expected output or output of a hidden test', async () => {
    const res = await call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token: w.tokens.student });
    expect(res.status).toBe(200);
    const raw = JSON.stringify(res.body);
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
    const detail = SubmissionDetail.parse(res.body);
    expect(detail.can_manage).toBe(false);
    const hidden = detail.evaluations.find((e) => e.test_case_id === w.hiddenTest.id)!;
    expect(hidden.view).toBe('hidden');
    expect(Object.keys(hidden)).not.toContain('stdin');
    expect(Object.keys(hidden)).not.toContain('stdout');
    expect(hidden.status).toBe('Wrong');
    expect(detail.evaluations.find((e) => e.test_case_id === w.visibleTest.id)!.view).toBe('full');

    const evaluations = await call(t, 'GET', '/api/Evaluation/', {
      token: w.tokens.student,
      query: { submission: String(w.completed.id) },
    });
    const rawList = JSON.stringify(evaluations.body);
    for (const secret of SECRETS) expect(rawList).not.toContain(secret);
    expect(EvaluationList.parse(evaluations.body).count).toBe(2);
    const everyOwn = await call(t, 'GET', '/api/Evaluation/', { token: w.tokens.student });
    for (const secret of SECRETS) expect(JSON.stringify(everyOwn.body)).not.toContain(secret);

    const manager = await call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token: w.tokens.editor });
    const managerRaw = JSON.stringify(manager.body);
    for (const secret of SECRETS) expect(managerRaw).toContain(secret);
    expect(SubmissionDetail.parse(manager.body).can_manage).toBe(true);
  });

  it('never sends a student the time or memory of a hidden test; an editor gets both', async () => {
    // A program that reads the hidden input could spell it out in how long it runs or what it allocates.
    await t.ctx.db
      .update(evaluations)
      .set({ timeMs: 4321, memoryKb: 8765 })
      .where(and(eq(evaluations.submissionId, w.completed.id), eq(evaluations.testCaseId, w.hiddenTest.id)));
    const hiddenOf = (results: unknown) =>
      (results as Record<string, unknown>[]).find((e) => e.test_case_id === w.hiddenTest.id)!;
    const detail = (token: string) => call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token });
    const list = (token: string) =>
      call(t, 'GET', '/api/Evaluation/', { token, query: { submission: String(w.completed.id) } });

    for (const res of [await detail(w.tokens.student), await list(w.tokens.student)]) {
      const hidden = hiddenOf(res.json.evaluations ?? res.json.results);
      expect(hidden).toMatchObject({ view: 'hidden', status: 'Wrong', reason: 'wrong_answer' });
      expect(Object.keys(hidden)).not.toContain('time_ms');
      expect(Object.keys(hidden)).not.toContain('memory_kb');
      expect(JSON.stringify(res.body)).not.toMatch(/4321|8765/);
    }
    for (const res of [await detail(w.tokens.editor), await list(w.tokens.editor)]) {
      const hidden = hiddenOf(res.json.evaluations ?? res.json.results);
      expect(hidden).toMatchObject({ view: 'full', time_ms: 4321, memory_kb: 8765 });
    }
  });

  it('reveals after_due tests to the student once the due date has passed', async () => {
    const afterDue = await insertTestCase(t, w.assignment.id, {
      name: 'After',
      visibility: 'after_due',
      stdin: 'LATER-INPUT',
      position: 2,
    });
    await insertEvaluation(t, { submissionId: w.completed.id, testCaseId: afterDue.id, stdout: 'LATER-OUT' });
    const before = await call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token: w.tokens.student });
    expect(JSON.stringify(before.body)).not.toContain('LATER-');
    // Past due but inside the late window: students may still submit, so it stays hidden.
    await setLink(t, w.assignment.id, w.course.id, {
      opensAt: hoursFromNow(-48),
      dueAt: hoursFromNow(-1),
      lateUntil: hoursFromNow(1),
    });
    const late = await call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token: w.tokens.student });
    expect(JSON.stringify(late.body)).not.toContain('LATER-');
    await setLink(t, w.assignment.id, w.course.id, {
      opensAt: hoursFromNow(-48),
      dueAt: hoursFromNow(-1),
      lateUntil: null,
    });
    const after = SubmissionDetail.parse(
      (await call(t, 'GET', `/api/Submission/${w.completed.id}/`, { token: w.tokens.student })).body,
    );
    const evaluation = after.evaluations.find((e) => e.test_case_id === afterDue.id)!;
    expect(evaluation.view === 'full' && evaluation.stdin).toBe('LATER-INPUT');
    expect(JSON.stringify(after)).not.toContain('SECRET-');
    await setLink(t, w.assignment.id, w.course.id, {
      opensAt: hoursFromNow(-24),
      dueAt: hoursFromNow(24 * 7),
    });
  });

  it('filters evaluations by status and answers 404 for someone else’s submission', async () => {
    const wrong = await call(t, 'GET', '/api/Evaluation/', {
      token: w.tokens.editor,
      query: { submission: String(w.completed.id), status: 'Wrong' },
    });
    expect(EvaluationList.parse(wrong.body).results.map((e) => e.test_case_id)).toEqual([w.hiddenTest.id]);
    const someoneElse = await call(t, 'GET', '/api/Evaluation/', {
      token: w.tokens.classmate,
      query: { submission: String(w.completed.id) },
    });
    expect(someoneElse.status).toBe(404);
    const classmateAll = await call(t, 'GET', '/api/Evaluation/', { token: w.tokens.classmate });
    expect(EvaluationList.parse(classmateAll.body).count).toBe(0);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999999', 'abc', '0', '-1']) {
      expect((await call(t, 'GET', `/api/Submission/${id}/`, { token: w.tokens.staff })).status).toBe(404);
    }
    const unknownCourse = await call(t, 'GET', '/api/Submission/by-course/course/999999/', {
      token: w.tokens.staff,
    });
    expect(unknownCourse.status).toBe(404);
  });
});
