import { randomBytes } from 'node:crypto';
import { QuestionInput } from '@kadai/contracts';
import type { TestApp } from '../../../test/harness.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createCourseWorld,
  createUser,
  tokenFor,
} from '../../../test/factories.ts';
import { quizCourses, quizSubmissions } from '../../db/schema-quizzes.ts';
import { eq } from 'drizzle-orm';
import { toNewQuestions } from './questions.ts';
import * as repo from './quizzes.repo.ts';
import { insertQuizCourses } from './quiz-courses.repo.ts';
import { ALL_KINDS, ALL_KINDS_POINTS } from './sample-questions.ts';

export { ALL_KINDS, ALL_KINDS_POINTS, RIGHT, WRONG, answersFor } from './sample-questions.ts';

/** Test data for quizzes, written straight to the database (the routes are what the tests test). */

const MINUTE = 60_000;
export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

export interface QuizCourseDates {
  courseId: number;
  /** Default: opened an hour ago. */
  opensAt?: Date;
  /** Default: closes in a day. */
  closesAt?: Date;
  timeLimitMinutes?: number | null;
  scoresVisibleAt?: Date | null;
  answersVisibleAt?: Date | null;
}

export async function insertQuiz(
  t: TestApp,
  fields: { title?: string; createdBy?: number | null; questions?: unknown[]; courses: QuizCourseDates[] },
) {
  const quiz = await repo.insertQuiz(t.ctx.db, {
    title: fields.title ?? `Quiz ${randomBytes(3).toString('hex')}`,
    description: 'Answer every question.',
    createdBy: fields.createdBy ?? null,
  });
  const inputs = (fields.questions ?? ALL_KINDS).map((q) => QuestionInput.parse(q));
  await repo.replaceQuestions(t.ctx.db, quiz.id, toNewQuestions(inputs));
  await insertQuizCourses(
    t.ctx.db,
    quiz.id,
    fields.courses.map((c) => ({
      courseId: c.courseId,
      opensAt: c.opensAt ?? minutesFromNow(-60),
      closesAt: c.closesAt ?? minutesFromNow(24 * 60),
      timeLimitMinutes: c.timeLimitMinutes ?? null,
      scoresVisibleAt: c.scoresVisibleAt ?? null,
      answersVisibleAt: c.answersVisibleAt ?? null,
    })),
  );
  const links = await t.ctx.db.select().from(quizCourses).where(eq(quizCourses.quizId, quiz.id));
  const questions = await repo.listQuestions(t.ctx.db, [quiz.id]);
  const quizCourseOf = (courseId: number) => links.find((l) => l.courseId === courseId)!;
  return { quiz, questions, links, quizCourseOf };
}

/** An attempt written directly (started, or submitted with a score), e.g. to lock the questions. */
export async function insertAttempt(
  t: TestApp,
  fields: {
    quizCourseId: number;
    userId: number;
    startedAt?: Date;
    submittedAt?: Date | null;
    score?: number;
  },
) {
  const [row] = await t.ctx.db
    .insert(quizSubmissions)
    .values({
      quizCourseId: fields.quizCourseId,
      userId: fields.userId,
      startedAt: fields.startedAt ?? new Date(),
      submittedAt: fields.submittedAt ?? null,
      score: fields.submittedAt ? (fields.score ?? 0) : null,
      maxScore: fields.submittedAt ? ALL_KINDS_POINTS : null,
    })
    .returning();
  return row!;
}

/** Moves an attempt's start into the past, as if the student had started then. */
export async function setStartedAt(t: TestApp, submissionId: number, startedAt: Date) {
  await t.ctx.db.update(quizSubmissions).set({ startedAt }).where(eq(quizSubmissions.id, submissionId));
}

export async function setQuizCourse(
  t: TestApp,
  id: number,
  fields: Partial<Omit<QuizCourseDates, 'courseId'>>,
) {
  await t.ctx.db.update(quizCourses).set(fields).where(eq(quizCourses.id, id));
}

/**
 * The callers of the quizzes' authorization matrix around one open quiz of `course`, authored by the
 * course's editor, with a submission of the world's student (and a `draft` quiz nobody has started): anonymous, that student, a classmate, a
 * student of another course, an editor of the course, an editor of another course, staff.
 */
export async function createQuizWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const [classmate, otherStudent] = await Promise.all([createUser(t), createUser(t)]);
  await addStudent(t, world.course.id, classmate.id);
  await addStudent(t, world.otherCourse.id, otherStudent.id);
  // A second course of the world's editor, without students: somewhere to give the quiz to.
  const spareCourse = await createCourse(t, { title: 'Spare' });
  await addEditor(t, spareCourse.id, world.users.editor.id);
  const draft = await insertQuiz(t, {
    createdBy: world.users.editor.id,
    courses: [{ courseId: world.course.id }],
  });
  const made = await insertQuiz(t, {
    createdBy: world.users.editor.id,
    courses: [{ courseId: world.course.id, scoresVisibleAt: minutesFromNow(-1) }],
  });
  const quizCourse = made.quizCourseOf(world.course.id);
  const submission = await insertAttempt(t, {
    quizCourseId: quizCourse.id,
    userId: world.users.student.id,
    submittedAt: new Date(),
    score: 5,
  });
  return {
    ...world,
    users: { ...world.users, classmate, otherStudent },
    tokens: {
      ...world.tokens,
      classmate: await tokenFor(t, classmate),
      otherStudent: await tokenFor(t, otherStudent),
    },
    spareCourse,
    quiz: made.quiz,
    draft: draft.quiz,
    questions: made.questions,
    quizCourse,
    submission,
  };
}
export type QuizWorld = Awaited<ReturnType<typeof createQuizWorld>>;
