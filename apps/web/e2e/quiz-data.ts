import { expect, type APIRequestContext } from '@playwright/test';
import { QuizInCourseList, QuizResults, type QuizInCourse } from '@kadai/contracts';
import { ACCOUNTS, apiToken } from './support.ts';

/** The seeded demo quizzes (apps/api/src/features/quizzes/demo.ts): open, upcoming (timed), closed. */
export const DEMO_QUIZZES = {
  open: 'Python basics check',
  upcoming: 'Functions and scope',
  closed: 'Warm-up: values and types',
} as const;

export interface DemoQuizPages {
  list: string;
  open: string;
  upcoming: string;
  closed: string;
  /** A seeded submission to the closed quiz, with scores and answers open for review. */
  closedSubmission: string;
}

/** URLs of the quiz pages of the demo course, looked up through the API as staff. */
export async function demoQuizPages(request: APIRequestContext, courseId: number): Promise<DemoQuizPages> {
  const { token } = await apiToken(request, ACCOUNTS.staff);
  const headers = { authorization: `Bearer ${token}` };
  const listed = await request.get('/api/Quiz/CourseSpecific/', { params: { course_id: courseId }, headers });
  expect(listed.ok()).toBe(true);
  const quizzes = QuizInCourseList.parse(await listed.json()).results;
  const find = (title: string): QuizInCourse => {
    const quiz = quizzes.find((candidate) => candidate.title === title);
    expect(quiz, `the demo quiz "${title}"`).toBeDefined();
    return quiz!;
  };
  const url = (quiz: QuizInCourse) =>
    `/course/${courseId}/quizzes/${quiz.quiz_id}/quiz-courses/${quiz.quiz_course.id}`;
  const closed = find(DEMO_QUIZZES.closed);
  const results = await request.get(`/api/quiz-courses/${closed.quiz_course.id}/results/`, { headers });
  expect(results.ok()).toBe(true);
  const submission = QuizResults.parse(await results.json()).students.find((s) => s.submission_id !== null);
  expect(submission, 'a seeded submission to the closed quiz').toBeDefined();
  return {
    list: `/course/${courseId}/quizzes`,
    open: url(find(DEMO_QUIZZES.open)),
    upcoming: url(find(DEMO_QUIZZES.upcoming)),
    closed: url(closed),
    closedSubmission: `/course/${courseId}/quizzes/${closed.quiz_id}/quiz-submissions/${submission!.submission_id}`,
  };
}
