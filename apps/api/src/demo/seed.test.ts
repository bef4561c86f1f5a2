import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AssignmentInCourseList,
  CourseList,
  ReviewQueue,
  Rubric,
  SavedCommentList,
  StudentCourseOverview,
  StudentFeedback,
  TestCaseList,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { createUser } from '../../test/factories.ts';
import { verifyPassword } from '../features/auth/password-hash.ts';
import { findUserByEmail } from '../features/users/users.repo.ts';
import { courses, users } from '../db/schema.ts';
import {
  DEMO_COURSE_TITLE,
  DEMO_PASSWORD,
  DEMO_SECOND_COURSE_TITLE,
  findDemoCourse,
  seedDemoData,
} from './seed.ts';

describe('seedDemoData', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const signIn = async (email: string) => {
    const res = await call(t, 'POST', '/api/Auth/Token/', { body: { email, password: DEMO_PASSWORD } });
    expect(res.status, `${email}: ${JSON.stringify(res.body)}`).toBe(200);
    return String(res.json.access);
  };
  const coursesOf = async (token: string) =>
    CourseList.parse((await call(t, 'GET', '/api/Course/', { token })).body).results.map((c) => ({
      title: c.title,
      role: c.my_role,
      editors: c.editor_count,
      students: c.student_count,
    }));

  it('fills an empty database once: five accounts, two courses', async () => {
    expect(await seedDemoData(t.ctx)).toBe(true);
    expect(await seedDemoData(t.ctx)).toBe(false);
    expect(await t.ctx.db.$count(users)).toBe(5);
    expect(await t.ctx.db.$count(courses)).toBe(2);

    const demo = await findDemoCourse(t.ctx);
    expect(demo).toMatchObject({ title: DEMO_COURSE_TITLE, hasVideos: true, hasAssessment: true });
    expect(demo!.description).not.toBe('');

    const staff = await findUserByEmail(t.ctx.db, 'staff@example.com');
    expect(staff).toMatchObject({ isStaff: true, roles: ['no_role'], displayLang: 'ja' });
    expect(staff!.firstName).not.toBe('');
    expect(await findUserByEmail(t.ctx.db, 'editor@example.com')).toMatchObject({
      isStaff: false,
      roles: ['instructor'],
    });
    const student = await findUserByEmail(t.ctx.db, 'student2@example.com');
    expect(student).toMatchObject({ isStaff: false, roles: ['student'] });
    expect(await verifyPassword(student!.passwordHash!, DEMO_PASSWORD)).toBe(true);
  });

  it('lets every demo account sign in and see its courses', async () => {
    await seedDemoData(t.ctx);
    const both = [
      { title: DEMO_SECOND_COURSE_TITLE, editors: 1, students: 0 },
      { title: DEMO_COURSE_TITLE, editors: 1, students: 3 },
    ];
    expect(await coursesOf(await signIn('staff@example.com'))).toEqual(
      both.map((c) => ({ ...c, role: 'staff' })),
    );
    expect(await coursesOf(await signIn('editor@example.com'))).toEqual(
      both.map((c) => ({ ...c, role: 'editor' })),
    );
    for (const n of [1, 2, 3]) {
      expect(await coursesOf(await signIn(`student${n}@example.com`))).toEqual([
        { title: DEMO_COURSE_TITLE, role: 'student', editors: 1, students: 3 },
      ]);
    }
  });

  it('leaves a database with users alone', async () => {
    await createUser(t);
    expect(await seedDemoData(t.ctx)).toBe(false);
    expect(await t.ctx.db.$count(users)).toBe(1);
    expect(await t.ctx.db.$count(courses)).toBe(0);
  });

  it('gives the demo course two open assignments with visible, hidden and script tests, and a closed warm-up', async () => {
    await seedDemoData(t.ctx);
    const demo = await findDemoCourse(t.ctx);
    const list = async (email: string) =>
      AssignmentInCourseList.parse(
        (
          await call(t, 'GET', '/api/Assignment/CourseSpecific/', {
            token: await signIn(email),
            query: { course_id: String(demo!.id), ordering: 'title' },
          })
        ).body,
      ).results;
    const all = await list('student1@example.com');
    // The warm-up (assessment's demo) was due last week and is graded.
    expect(all.filter((a) => !a.accepts_submissions).map((a) => [a.title, a.total_points])).toEqual([
      ['Warm-up: Celsius to Fahrenheit', 10],
    ]);
    const seen = all.filter((a) => a.accepts_submissions);
    expect(seen.map((a) => [a.title, a.test_case_count, a.total_points, a.accepts_submissions])).toEqual([
      ['Hello, world', 1, 1, true],
      ['Sum of two numbers', 3, 5, true],
      ['Word count', 2, 9, true],
    ]);
    const dueInDays = (Date.parse(seen[1]!.due_at) - Date.now()) / 86_400_000;
    expect(dueInDays).toBeGreaterThan(13);
    expect(dueInDays).toBeLessThan(15);

    const sum = seen[1]!;
    const tests = await call(t, 'GET', `/api/Assignment/${sum.id}/${demo!.id}/TestCase/`, {
      token: await signIn('student2@example.com'),
    });
    expect(TestCaseList.parse(tests.body).results.map((r) => [r.kind, r.visibility, r.stdin])).toEqual([
      ['io', 'visible', '1 2\n'],
      ['io', 'hidden', null],
      ['script', 'after_due', null],
    ]);
    expect(JSON.stringify(tests.body)).not.toContain('/judge/stdout');
    const asEditor = await call(t, 'GET', `/api/Assignment/${sum.id}/`, {
      token: await signIn('editor@example.com'),
    });
    expect(asEditor.json).toMatchObject({
      view: 'editor',
      reference_solution: expect.stringContaining('print(a + b)'),
    });
  });

  it('grades the warm-up by hand: a rubric, a saved comment, one review released and one not', async () => {
    await seedDemoData(t.ctx);
    const demo = await findDemoCourse(t.ctx);
    const editor = await signIn('editor@example.com');
    const student = await signIn('student1@example.com');
    const home = StudentCourseOverview.parse(
      (await call(t, 'GET', `/api/Course/${demo!.id}/overview/`, { token: student })).body,
    );
    expect(home.new_feedback.results).toMatchObject([
      { assignment_title: 'Warm-up: Celsius to Fahrenheit', total: 12, max_score: 12 },
    ]);
    const { assignment_id: warmUp, submission_id: submissionId } = home.new_feedback.results[0]!;

    const url = `/api/Course/${demo!.id}/assignments/${warmUp}`;
    const rubric = Rubric.parse((await call(t, 'GET', `${url}/rubric/`, { token: editor })).body);
    expect(rubric.items).toHaveLength(4);
    expect(new Set(rubric.items.map((i) => i.group)).size).toBe(2);
    expect(rubric.items.filter((i) => i.points < 0)).toHaveLength(1);
    const queue = ReviewQueue.parse((await call(t, 'GET', `${url}/reviews/`, { token: editor })).body);
    expect(queue.progress).toMatchObject({
      students: 3,
      submitted: 3,
      graded: 2,
      released: 1,
      unreleased: 1,
    });
    const saved = SavedCommentList.parse(
      (await call(t, 'GET', `/api/Course/${demo!.id}/saved-comments/`, { token: editor })).body,
    );
    expect(saved.count).toBe(1);

    const feedback = StudentFeedback.parse(
      (await call(t, 'GET', `/api/Submission/${submissionId}/feedback/`, { token: student })).body,
    );
    expect(feedback).toMatchObject({ released: true, score: { total: 12, max_score: 12 } });
    expect(feedback.comments.map((c) => [c.filename, c.line_start])).toEqual([['main.py', 2]]);
  });

  it('seeds once when two instances start together', async () => {
    const results = await Promise.all([seedDemoData(t.ctx), seedDemoData(t.ctx)]);
    expect(results.sort()).toEqual([false, true]);
    expect(await t.ctx.db.$count(users)).toBe(5);
  });
});
