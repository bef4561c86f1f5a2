import type {
  PageQuery,
  QuizSubmission,
  QuizSubmissionDetail,
  QuizSubmissionList,
  QuizSubmissionListQuery,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { hasPassed } from './quiz-access.ts';
import { questionViews, toQuizSubmission } from './quiz-shape.ts';
import * as attempts from './attempts.repo.ts';
import * as repo from './quizzes.repo.ts';

/**
 * Who sees a quiz submission (docs/quizzes.md, "Access"): its author, and the editors of its course and
 * staff; anyone else gets 404. The author sees the score once `scores_visible_at` has passed and the
 * keys once `answers_visible_at` has, both only for a submitted attempt.
 */
function visibilityOf(actor: Actor, view: attempts.SubmissionView, now: Date) {
  const managesCourse = actor.isStaff || view.quizCourse.isEditor;
  const isOwner = view.attempt.userId === actor.userId;
  if (!managesCourse && !isOwner) return null;
  const submitted = view.attempt.submittedAt !== null;
  return {
    managesCourse,
    scoresVisible: managesCourse || (submitted && hasPassed(view.quizCourse.scoresVisibleAt, now)),
    answersVisible: managesCourse || (submitted && hasPassed(view.quizCourse.answersVisibleAt, now)),
  };
}

async function shapeList(
  db: Executor,
  actor: Actor,
  views: attempts.SubmissionView[],
): Promise<QuizSubmission[]> {
  const unsubmitted = [
    ...new Set(views.filter((v) => v.attempt.maxScore === null).map((v) => v.quizCourse.quizId)),
  ];
  const totals = await repo.questionTotals(db, unsubmitted);
  const now = new Date();
  return views.flatMap((view) => {
    const seen = visibilityOf(actor, view, now);
    if (!seen) return [];
    return [
      toQuizSubmission({
        attempt: view.attempt,
        window: view.quizCourse,
        user: view.user,
        maxScore: totals.get(view.quizCourse.quizId)?.points ?? 0,
        scoresVisible: seen.scoresVisible,
        answersVisible: seen.answersVisible,
      }),
    ];
  });
}

async function page(
  ctx: AppContext,
  actor: Actor,
  query: PageQuery,
  filter: Omit<attempts.SubmissionListFilter, 'viewer' | 'limit' | 'offset'>,
): Promise<QuizSubmissionList> {
  const { count, rows } = await attempts.listSubmissionViews(ctx.db, {
    ...filter,
    viewer: actor,
    limit: query.limit,
    offset: query.offset,
  });
  return { count, limit: query.limit, offset: query.offset, results: await shapeList(ctx.db, actor, rows) };
}

/** `GET quiz-submissions/` and `GET QuizSubmission/`: everything the caller may see, filtered. */
export function listSubmissions(
  ctx: AppContext,
  actor: Actor,
  query: Partial<QuizSubmissionListQuery> & PageQuery,
): Promise<QuizSubmissionList> {
  return page(ctx, actor, query, {
    courseId: query.course,
    userId: query.created_by,
    quizId: query.quiz,
    quizCourseId: query.quiz_course,
  });
}

/**
 * `GET QuizSubmission/by-course/course/{course_id}/` and `…/user/{user_id}/`: members of the course only
 * (404 otherwise); a student gets their own, and asking for someone else's list is answered 404.
 */
export async function listCourseSubmissions(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  userId: number | undefined,
  query: PageQuery,
): Promise<QuizSubmissionList> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (role === 'student') {
    if (userId !== undefined && userId !== actor.userId) throw notFound();
    return page(ctx, actor, query, { courseId, userId: actor.userId });
  }
  return page(ctx, actor, query, { courseId, userId });
}

/** `GET QuizSubmission/{id}/` and `GET quiz-submissions/{id}`. */
export async function getSubmissionDetail(
  ctx: AppContext,
  actor: Actor,
  id: number,
): Promise<QuizSubmissionDetail> {
  const view = await attempts.findSubmissionView(ctx.db, id, actor.userId);
  const now = new Date();
  const seen = view && visibilityOf(actor, view, now);
  if (!view || !seen) throw notFound();
  const [questions, answers] = await Promise.all([
    repo.listQuestions(ctx.db, [view.quizCourse.quizId]),
    attempts.listAnswers(ctx.db, [id]),
  ]);
  const mode = seen.managesCourse ? 'editor' : seen.answersVisible ? 'review' : 'student';
  return {
    ...toQuizSubmission({
      attempt: view.attempt,
      window: view.quizCourse,
      user: view.user,
      maxScore: questions.reduce((sum, q) => sum + q.points, 0),
      scoresVisible: seen.scoresVisible,
      answersVisible: seen.answersVisible,
    }),
    questions: questionViews(questions, mode, view.attempt.userId),
    answers: answers.map((a) => ({
      question_id: a.questionId,
      answer: a.answer,
      is_correct: seen.scoresVisible ? a.isCorrect : null,
      points: seen.scoresVisible ? a.points : null,
    })),
  };
}
