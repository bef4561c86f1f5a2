import type {
  Paginated,
  QuizCourse,
  QuizCourseCreate,
  QuizCourseListQuery,
  QuizCourseUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import {
  assertEditsCourses,
  getQuizAccess,
  getQuizCourseAccess,
  requireCourseManager,
  requireManager,
} from './quiz-access.ts';
import { toQuizCourse } from './quiz-shape.ts';
import * as lists from './quiz-lists.repo.ts';
import * as repo from './quizzes.repo.ts';
import * as writes from './quiz-courses.repo.ts';
import { quizCourseFields } from './quizzes.service.ts';

/** `GET quiz-courses/`: staff all; others those of their courses and of the quizzes they manage. */
export async function listQuizCourses(
  ctx: AppContext,
  actor: Actor,
  query: QuizCourseListQuery,
): Promise<Paginated<QuizCourse>> {
  const { count, rows } = await lists.listVisibleQuizCourses(ctx.db, actor, {
    courseId: query.course,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
  });
  const now = new Date();
  return { count, limit: query.limit, offset: query.offset, results: rows.map((r) => toQuizCourse(r, now)) };
}

async function quizCourseOut(db: Executor, actor: Actor, id: number): Promise<QuizCourse> {
  const access = await getQuizCourseAccess(db, actor, { quizCourseId: id });
  return toQuizCourse(access.context, new Date());
}

export function getQuizCourse(ctx: AppContext, actor: Actor, id: number): Promise<QuizCourse> {
  return quizCourseOut(ctx.db, actor, id);
}

/**
 * `POST quiz-courses/`: gives a quiz the caller manages to a course they edit (staff: every quiz and
 * course). A quiz is given to a course once (409 `already_given`).
 */
export async function createQuizCourse(
  ctx: AppContext,
  actor: Actor,
  input: QuizCourseCreate,
): Promise<QuizCourse> {
  return ctx.db.transaction(async (tx) => {
    const access = await getQuizAccess(tx, actor, input.quiz);
    requireManager(access);
    await assertEditsCourses(tx, actor, [input.course], 'course');
    await repo.lockQuiz(tx, input.quiz);
    const [id] = await writes.insertQuizCourses(tx, input.quiz, [
      quizCourseFields({ ...input, course_id: input.course }),
    ]);
    if (id === undefined) {
      throw conflict(`This quiz is already given to course ${input.course}.`, 'already_given', {
        course: ['The quiz is already given to this course.'],
      });
    }
    return quizCourseOut(tx, actor, id);
  });
}

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** `PATCH quiz-courses/{id}/`: editors of that course and staff; the merged window must still make sense. */
export async function updateQuizCourse(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: QuizCourseUpdate,
): Promise<QuizCourse> {
  return ctx.db.transaction(async (tx) => {
    const access = await getQuizCourseAccess(tx, actor, { quizCourseId: id });
    requireCourseManager(access);
    const opensAt = toDate(input.opens_at) ?? access.context.opensAt;
    const closesAt = toDate(input.closes_at) ?? access.context.closesAt;
    if (closesAt.getTime() <= opensAt.getTime()) {
      throw badRequest('Invalid input.', { closes_at: ['The closing time must be after the opening time.'] });
    }
    const changed = await writes.updateQuizCourse(tx, id, {
      opensAt: toDate(input.opens_at) ?? undefined,
      closesAt: toDate(input.closes_at) ?? undefined,
      timeLimitMinutes: input.time_limit_minutes,
      scoresVisibleAt: toDate(input.scores_visible_at),
      answersVisibleAt: toDate(input.answers_visible_at),
    });
    if (!changed) throw notFound();
    return quizCourseOut(tx, actor, id);
  });
}

/**
 * `DELETE quiz-courses/{id}/`: editors of that course and staff. The course's attempts and answers go
 * with it, so once a student has started it only staff may (409 `has_submissions` for editors).
 */
export async function deleteQuizCourse(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const access = await getQuizCourseAccess(tx, actor, { quizCourseId: id });
    requireCourseManager(access);
    await repo.lockQuiz(tx, access.context.quizId);
    if (!actor.isStaff) {
      const attempts = (await writes.countAttemptsByQuizCourse(tx, access.context.quizId)).get(id) ?? 0;
      if (attempts > 0) {
        throw conflict(
          `Students have started or submitted this quiz ${attempts} time(s) in this course; only staff can remove it.`,
          'has_submissions',
        );
      }
    }
    if (!(await writes.deleteQuizCourse(tx, id))) throw notFound();
  });
}
