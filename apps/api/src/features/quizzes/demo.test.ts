import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuizContent, QuizInCourseList, QuizResults, QuizSubmissionDetail } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { DEMO_PASSWORD, findDemoCourse, seedDemoData } from '../../demo/seed.ts';
import { DEMO_QUIZ_TITLES } from './demo.ts';

describe('demo quizzes', () => {
  let t: TestApp;
  let courseId: string;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoData(t.ctx);
    courseId = String((await findDemoCourse(t.ctx))!.id);
  });
  afterAll(() => t.close());

  const signIn = async (email: string) => {
    const res = await call(t, 'POST', '/api/Auth/Token/', { body: { email, password: DEMO_PASSWORD } });
    return String(res.json.access);
  };
  const quizzesOf = async (token: string) =>
    QuizInCourseList.parse(
      (
        await call(t, 'GET', '/api/Quiz/CourseSpecific/', {
          token,
          query: { course_id: courseId, ordering: 'opens_at' },
        })
      ).body,
    ).results;

  it('gives the demo course a closed quiz under review, an open one of every kind and an upcoming timed one', async () => {
    const student = await signIn('student1@example.com');
    const seen = await quizzesOf(student);
    expect(seen.map((q) => [q.title, q.quiz_course.state, q.my_submission?.status ?? null])).toEqual([
      [DEMO_QUIZ_TITLES.closed, 'closed', 'submitted'],
      [DEMO_QUIZ_TITLES.open, 'open', null],
      [DEMO_QUIZ_TITLES.upcoming, 'upcoming', null],
    ]);
    expect(seen[0]).toMatchObject({
      scores_visible: true,
      answers_visible: true,
      my_submission: { score: 3 },
    });
    expect(seen[2]!.quiz_course.time_limit_minutes).toBe(20);

    const open = seen[1]!;
    const content = QuizContent.parse(
      (
        await call(t, 'GET', `/api/Quiz/${open.quiz_id}/QuizContent/`, {
          token: student,
          query: { course_id: courseId },
        })
      ).body,
    );
    expect(new Set(content.questions.map((q) => q.kind))).toEqual(
      new Set(['single', 'multiple', 'true_false', 'short_text', 'numeric', 'ordering']),
    );

    const review = QuizContent.parse(
      (
        await call(t, 'GET', `/api/Quiz/${seen[0]!.quiz_id}/QuizContent/`, {
          token: student,
          query: { course_id: courseId },
        })
      ).body,
    );
    expect(review.questions.map((q) => q.view)).toEqual(['review', 'review', 'review']);
    const mine = QuizSubmissionDetail.parse(
      (await call(t, 'GET', `/api/QuizSubmission/${seen[0]!.my_submission!.id}/`, { token: student })).body,
    );
    expect(mine.answers.map((a) => a.is_correct)).toEqual([true, true, true]);

    const third = await quizzesOf(await signIn('student3@example.com'));
    expect(third[0]!.my_submission).toBeNull();
  });

  it('lets the editor see the closed quiz’s results', async () => {
    const editor = await signIn('editor@example.com');
    const closed = (await quizzesOf(editor))[0]!;
    const res = await call(t, 'GET', `/api/quiz-courses/${closed.quiz_course.id}/results/`, {
      token: editor,
    });
    expect(QuizResults.parse(res.body)).toMatchObject({
      student_count: 3,
      submitted_count: 2,
      max_score: 3,
      mean_score: 2.5,
    });
  });
});
