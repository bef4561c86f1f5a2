import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Feedback,
  FeedbackList,
  Skill,
  SkillCatalogue,
  SkillList,
  StudentAnalysis,
  Workshop,
  WorkshopList,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createAssessmentWorld, insertAssignment } from './testing.ts';

type World = Awaited<ReturnType<typeof createAssessmentWorld>>;

describe('skills, feedback and workshops', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createAssessmentWorld(t);
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, token: string, body?: unknown) =>
    call(t, method, `/api/assessment/${path}`, { token, body });
  const get = (path: string, token: string, query: Record<string, string>) =>
    call(t, 'GET', `/api/assessment/${path}`, { token, query });

  it('creates skills with unique names and checks every field', async () => {
    const created = await send('POST', 'Skill/', w.tokens.editor, {
      course: w.course.id,
      name: ' Recursion ',
      skill_type: 'programming',
    });
    expect(created.status).toBe(201);
    expect(Skill.parse(created.body)).toMatchObject({
      name: 'Recursion',
      description: '',
      items: { assignments: [] },
    });

    const again = await send('POST', 'Skill/', w.tokens.editor, {
      course: w.course.id,
      name: 'Recursion',
      skill_type: 'x',
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ name: ['Already in use.'] });
    for (const body of [
      { course: w.course.id, name: 'No type' },
      { course: w.course.id, name: '', skill_type: 'x' },
      { course: w.course.id, name: 'a/b', skill_type: 'x' },
      { course: w.course.id, name: 'Extra', skill_type: 'x', colour: 'red' },
      { course: 'one', name: 'Typed', skill_type: 'x' },
    ]) {
      expect((await send('POST', 'Skill/', w.tokens.editor, body)).status, JSON.stringify(body)).toBe(400);
    }
    const renamed = await send('PATCH', `Skill/${Skill.parse(created.body).id}/`, w.tokens.editor, {
      name: 'Loops',
    });
    expect(renamed.status).toBe(409);
  });

  it('tags only items of its own course, and the analysis follows', async () => {
    const catalogue = SkillCatalogue.parse(
      (await get('Skill/catalogue', w.tokens.editor, { course: String(w.course.id) })).body,
    );
    expect(catalogue.assignments.map((a) => a.test_cases.length)).toEqual([2, 1]);
    expect(catalogue.quizzes.map((q) => q.questions.length)).toEqual([2, 1]);

    const foreign = await insertAssignment(t, w.otherCourse.id, 3, [1]);
    const refused = await send('PUT', `Skill/${w.skills.loops.id}/items`, w.tokens.editor, {
      assignments: [w.work.a1.id],
      test_cases: [foreign.testCases[0]!.id],
      quiz_questions: [],
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ test_cases: [`Not in this course: ${foreign.testCases[0]!.id}.`] });
    expect(
      (await send('PUT', `Skill/${w.skills.loops.id}/items`, w.tokens.editor, { assignments: [] })).status,
    ).toBe(400);

    // Loops on A1's first test case only: s1's final earned 2 of its 2.
    const tagged = await send('PUT', `Skill/${w.skills.loops.id}/items`, w.tokens.editor, {
      assignments: [],
      test_cases: [w.work.a1.testCases[0]!.id, w.work.a1.testCases[0]!.id],
      quiz_questions: [],
    });
    expect(Skill.parse(tagged.body).items).toEqual({
      assignments: [],
      test_cases: [w.work.a1.testCases[0]!.id],
      quiz_questions: [],
    });
    const mine = StudentAnalysis.parse(
      (await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.student, {})).body,
    );
    expect(mine.skills.find((s) => s.name === 'Loops')?.score).toEqual({ earned: 2, possible: 2, ratio: 1 });

    // The whole assignment and one of its test cases: that test case counts once.
    await send('PUT', `Skill/${w.skills.loops.id}/items`, w.tokens.editor, {
      assignments: [w.work.a1.id],
      test_cases: [w.work.a1.testCases[0]!.id],
      quiz_questions: [],
    });
    const both = StudentAnalysis.parse(
      (await get(`${w.course.id}/${w.users.s1.id}`, w.tokens.student, {})).body,
    );
    expect(both.skills.find((s) => s.name === 'Loops')?.score).toEqual({
      earned: 2,
      possible: 5,
      ratio: 0.4,
    });

    const list = SkillList.parse((await get('Skill/', w.tokens.staff, { course: String(w.course.id) })).body);
    expect(list.results.map((s) => s.name)).toContain('Loops');
  });

  it('lets editors write feedback that only its student reads', async () => {
    const created = await send('POST', 'Feedback/', w.tokens.editor, {
      course: w.course.id,
      user: w.users.s2.id,
      skill: w.skills.functions.id,
      body: 'Try writing smaller functions.',
    });
    expect(created.status).toBe(201);
    expect(Feedback.parse(created.body)).toMatchObject({
      skill: 'Functions',
      author: { id: w.users.editor.id },
    });

    const bad = [
      { course: w.course.id, user: w.users.editor.id, body: 'Not a student' },
      { course: w.course.id, user: w.users.s2.id, skill: 999_999, body: 'Unknown skill' },
      { course: w.course.id, user: w.users.s2.id, body: '   ' },
      { course: w.course.id, user: w.users.s2.id },
    ];
    for (const body of bad)
      expect((await send('POST', 'Feedback/', w.tokens.editor, body)).status, JSON.stringify(body)).toBe(400);

    const course = String(w.course.id);
    const own = FeedbackList.parse((await get('Feedback/', w.tokens.s2, { course })).body);
    expect(own.results.map((f) => f.body)).toEqual(['Try writing smaller functions.']);
    expect((await get('Feedback/', w.tokens.s2, { course, user: String(w.users.s1.id) })).status).toBe(404);
    const all = FeedbackList.parse((await get('Feedback/', w.tokens.editor, { course, limit: '1' })).body);
    expect(all).toMatchObject({ count: 2, limit: 1 });
    expect((await get('Feedback/', w.tokens.editor, { course, limit: '101' })).status).toBe(400);
    expect((await get('Feedback/', w.tokens.editor, {})).status).toBe(400);
    // The student may not change what was written to them; deleting the skill keeps the feedback.
    const id = Feedback.parse(created.body).id;
    expect((await send('PATCH', `Feedback/${id}/`, w.tokens.s2, { body: 'Mine now' })).status).toBe(403);
    expect((await send('DELETE', `Skill/${w.skills.functions.id}/`, w.tokens.editor)).status).toBe(204);
    const kept = FeedbackList.parse((await get('Feedback/', w.tokens.s2, { course })).body).results[0];
    expect(kept).toMatchObject({ id, skill: null });
  });

  it('plans workshops for students of the course and records who came', async () => {
    const plan = {
      course: w.course.id,
      skill: w.skills.reading.id,
      title: 'Reading clinic',
      location: 'Room 101',
      starts_at: '2030-04-01T10:00:00+09:00',
      ends_at: '2030-04-01T11:30:00+09:00',
      participants: [
        { user: w.users.s2.id, status: 'invited' },
        { user: w.users.s3.id, status: 'invited' },
      ],
    };
    const created = await send('POST', 'Workshop/', w.tokens.editor, plan);
    expect(created.status).toBe(201);
    const workshop = Workshop.parse(created.body);
    expect(workshop).toMatchObject({ skill: 'Reading', starts_at: '2030-04-01T01:00:00.000Z' });
    expect(workshop.participants).toHaveLength(2);

    expect(
      (await send('POST', 'Workshop/', w.tokens.editor, { ...plan, ends_at: plan.starts_at })).status,
    ).toBe(400);
    expect(
      (await send('POST', 'Workshop/', w.tokens.editor, { ...plan, starts_at: 'tomorrow' })).status,
    ).toBe(400);
    const stranger = { ...plan, participants: [{ user: w.users.otherEditor.id, status: 'invited' }] };
    expect((await send('POST', 'Workshop/', w.tokens.editor, stranger)).status).toBe(400);
    const badStatus = { ...plan, participants: [{ user: w.users.s2.id, status: 'maybe' }] };
    expect((await send('POST', 'Workshop/', w.tokens.editor, badStatus)).status).toBe(400);

    const marked = await send('PATCH', `Workshop/${workshop.id}/`, w.tokens.editor, {
      participants: [
        { user: w.users.s2.id, status: 'attended' },
        { user: w.users.s3.id, status: 'absent' },
      ],
    });
    expect(
      Workshop.parse(marked.body)
        .participants.map((p) => p.status)
        .sort(),
    ).toEqual(['absent', 'attended']);
    const early = await send('PATCH', `Workshop/${workshop.id}/`, w.tokens.editor, {
      ends_at: '2030-04-01T09:00:00+09:00',
    });
    expect(early.status).toBe(400);

    // s2 sees both workshops they take part in, and only themself in each.
    const course = String(w.course.id);
    const theirs = WorkshopList.parse((await get('Workshop/', w.tokens.s2, { course })).body);
    expect(theirs.results.map((r) => r.title)).toEqual(['Reading clinic', 'Loops clinic']);
    expect(theirs.results.flatMap((r) => r.participants.map((p) => p.user.id))).toEqual([
      w.users.s2.id,
      w.users.s2.id,
    ]);
    // s1 is not in the new one: it is not theirs to see or to change.
    const own = WorkshopList.parse((await get('Workshop/', w.tokens.student, { course })).body);
    expect(own.results.map((r) => r.title)).toEqual(['Loops clinic']);
    expect((await send('PATCH', `Workshop/${workshop.id}/`, w.tokens.student, { title: 'x' })).status).toBe(
      404,
    );
    expect((await send('DELETE', `Workshop/${workshop.id}/`, w.tokens.s2)).status).toBe(403);
    expect((await send('DELETE', `Workshop/${workshop.id}/`, w.tokens.editor)).status).toBe(204);
    expect((await send('DELETE', `Workshop/${workshop.id}/`, w.tokens.editor)).status).toBe(404);
  });
});
