import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssessmentExistence, AssessmentTable, Histogram, StudentAnalysis } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { createAssessmentWorld, insertGraded } from './testing.ts';

type World = Awaited<ReturnType<typeof createAssessmentWorld>>;

/** The numbers of the example in testing.ts (docs/assessment.md works them through). */
describe('assessment analysis', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createAssessmentWorld(t);
  });
  afterAll(() => t.close());

  const get = (path: string, token: string | undefined, query?: Record<string, string>) =>
    call(t, 'GET', `/api/assessment/${path}`, { token, query });

  it('exists when switched on and a skill is tagged; outsiders get 404', async () => {
    const existence = async (courseId: number, token: string) =>
      AssessmentExistence.parse((await get(`Existence/Course/${courseId}`, token)).body).data;
    expect(await existence(w.course.id, w.tokens.student)).toBe(true);
    // The other course has it switched on but no skill yet.
    expect(await existence(w.otherCourse.id, w.tokens.otherEditor)).toBe(false);
    const off = await createCourse(t, { hasAssessment: false });
    expect((await get(`Existence/Course/${off.id}`, w.tokens.staff)).json).toEqual({ data: false });
    expect((await get(`Existence/Course/${w.course.id}`, w.tokens.otherEditor)).status).toBe(404);
    expect((await get(`Existence/Course/${off.id}`, w.tokens.student)).status).toBe(404);
    expect((await get(`Existence/Course/abc`, w.tokens.student)).status).toBe(404);
    // Switched off, the analysis itself is not there either.
    expect((await get(`${off.id}`, w.tokens.staff)).status).toBe(404);
  });

  it('gives editors the whole class: counted work, totals and skills', async () => {
    const table = AssessmentTable.parse((await get(`${w.course.id}`, w.tokens.editor)).body);
    expect(table.skills).toEqual([
      { name: 'Functions', skill_type: 'programming' },
      { name: 'Loops', skill_type: 'programming' },
      { name: 'Reading', skill_type: 'theory' },
    ]);
    expect(table.assignments.map((a) => [a.id, a.max_score])).toEqual([
      [w.work.a1.id, 5],
      [w.work.a2.id, 5],
    ]);
    expect(table.quizzes.map((q) => q.id)).toEqual([w.work.q.quizCourse.id, w.work.hidden.quizCourse.id]);
    const row = (id: number) => table.students.find((s) => s.user.id === id)!;
    // s1: the final submission counts (2), not the better one (5); A2 graded early counts.
    expect(row(w.users.s1.id)).toMatchObject({
      assignments: [2, 5],
      quizzes: [1, null],
      total: { earned: 8, possible: 12 },
      skills: [
        { earned: 5, possible: 6 },
        { earned: 2, possible: 5, ratio: 0.4 },
        { earned: 1, possible: 1, ratio: 1 },
      ],
    });
    // s2: no final, so the best (3); A2 is not due and not submitted; the closed quiz counts 0.
    expect(row(w.users.s2.id)).toMatchObject({
      assignments: [3, null],
      quizzes: [0, null],
      total: { earned: 3, possible: 7 },
      skills: [
        { earned: 0, possible: 1, ratio: 0 },
        { earned: 3, possible: 5, ratio: 0.6 },
        { earned: 0, possible: 1, ratio: 0 },
      ],
    });
    expect(row(w.users.s3.id)).toMatchObject({ assignments: [0, null], total: { earned: 0, possible: 7 } });
    expect(table.students).toHaveLength(3);
  });

  it('gives a student their own analysis, by skill type, and 404 for another student', async () => {
    const mine = StudentAnalysis.parse((await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.student)).body);
    expect(mine.skill_types).toEqual(['programming', 'theory']);
    expect(mine.skills.map((s) => s.name)).toEqual(['Functions', 'Loops', 'Reading']);
    expect(mine.assignments.map((a) => a.score)).toEqual([2, 5]);
    expect(mine.total).toEqual({ earned: 8, possible: 12, ratio: 8 / 12 });
    const theory = StudentAnalysis.parse(
      (await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.student, { skill_type: 'theory' })).body,
    );
    expect(theory.skills).toEqual([
      { name: 'Reading', skill_type: 'theory', score: { earned: 1, possible: 1, ratio: 1 } },
    ]);

    expect((await get(`${w.course.id}/${w.users.s2.id}`, w.tokens.student)).status).toBe(404);
    expect((await get(`${w.course.id}`, w.tokens.student)).status).toBe(403);
    expect((await get(`${w.course.id}/${w.users.s2.id}`, w.tokens.editor)).status).toBe(200);
    // Only students of the course have an analysis.
    expect((await get(`${w.course.id}/${w.users.editor.id}`, w.tokens.editor)).status).toBe(404);
    expect((await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.otherEditor)).status).toBe(404);
    expect((await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.student, { skill_type: '' })).status).toBe(
      400,
    );
  });

  it('draws the class distribution with the student’s bin and nobody’s name', async () => {
    const a1 = Histogram.parse(
      (await get(`histogram/assignment/${w.course.id}/${w.users.s1.id}/${w.work.a1.id}`, w.tokens.student))
        .body,
    );
    expect(a1.bins.map((b) => b.count)).toEqual([1, 0, 0, 0, 1, 0, 1, 0, 0, 0]);
    expect(a1).toMatchObject({ mine: 4, my_ratio: 0.4, students: 3 });
    expect(a1.mean).toBeCloseTo(1 / 3, 10);
    expect(JSON.stringify(a1)).not.toMatch(/@|user/);
    // A2 is not due: only s1's early grade counts.
    const a2 = Histogram.parse(
      (await get(`histogram/assignment/${w.course.id}/${w.users.s2.id}/${w.work.a2.id}`, w.tokens.s2)).body,
    );
    expect(a2).toMatchObject({ mine: null, my_ratio: null, students: 1 });
    expect(a2.bins[9]!.count).toBe(1);

    const functions = Histogram.parse(
      (await get(`histogram/skill/${w.course.id}/${w.users.s1.id}/Functions`, w.tokens.student)).body,
    );
    expect(functions.bins.map((b) => b.count)).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    expect(functions.mine).toBe(8);

    expect(
      (await get(`histogram/skill/${w.course.id}/${w.users.s1.id}/Nothing`, w.tokens.student)).status,
    ).toBe(404);
    const elsewhere = `histogram/assignment/${w.course.id}/${w.users.s1.id}/999999`;
    expect((await get(elsewhere, w.tokens.student)).status).toBe(404);
    const others = `histogram/assignment/${w.course.id}/${w.users.s2.id}/${w.work.a1.id}`;
    expect((await get(others, w.tokens.student)).status).toBe(404);
  });

  it('shows a new grade at once', async () => {
    const s3 = await createUser(t);
    const before = AssessmentTable.parse((await get(`${w.course.id}`, w.tokens.staff)).body);
    expect(before.students.find((s) => s.user.id === w.users.s3.id)?.assignments[1]).toBeNull();
    await insertGraded(t, w.work.a2, w.course.id, w.users.s3.id, [4], true);
    const after = AssessmentTable.parse((await get(`${w.course.id}`, w.tokens.staff)).body);
    expect(after.students.find((s) => s.user.id === w.users.s3.id)).toMatchObject({
      assignments: [0, 4],
      skills: [{ earned: 4, possible: 6 }, { earned: 0 }, { earned: 0 }],
    });
    // Someone who is not a student of the course is in nobody's table.
    await insertGraded(t, w.work.a1, w.course.id, s3.id, [2, 3], true);
    expect(
      AssessmentTable.parse((await get(`${w.course.id}`, await tokenFor(t, w.users.staff))).body).students,
    ).toHaveLength(3);
  });
});
