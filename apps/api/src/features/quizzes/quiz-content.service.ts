import type { QuizContent, QuizCourseSpecificQuery, QuizInCourse } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import {
  GRACE_MS,
  deadlineOf,
  getQuizCourseAccess,
  hasPassed,
  notOpenYet,
  resolveQuizCourseAccess,
  timeIsUp,
  type QuizCourseAccess,
} from './quiz-access.ts';
import { questionViews, toMySubmission, toQuizCourse, type QuestionMode } from './quiz-shape.ts';
import { countSubmittedStudents } from './attempts.repo.ts';
import * as lists from './quiz-lists.repo.ts';
import * as repo from './quizzes.repo.ts';
import type { QuizQuestion } from './questions.ts';
import { totalPoints } from './scoring.ts';

/**
 * What the caller sees of scores and answers (docs/quizzes.md, "Visibility"): managers always; a student
 * from `scores_visible_at` and `answers_visible_at` on (null: not yet decided, hidden).
 */
export function visibilityOf(access: Pick<QuizCourseAccess, 'canManage' | 'context'>, now: Date) {
  return {
    scoresVisible: access.canManage || hasPassed(access.context.scoresVisibleAt, now),
    answersVisible: access.canManage || hasPassed(access.context.answersVisibleAt, now),
  };
}

function toQuizInCourse(
  access: QuizCourseAccess,
  totals: repo.QuestionTotals,
  now: Date,
  submittedStudents: number | null,
): QuizInCourse {
  const c = access.context;
  const { scoresVisible, answersVisible } = visibilityOf(access, now);
  return {
    quiz_course: toQuizCourse(c, now),
    quiz_id: c.quizId,
    title: c.quizTitle,
    description: c.quizDescription,
    question_count: totals.count,
    total_points: totals.points,
    my_submission: c.attempt ? toMySubmission(c.attempt, c, scoresVisible) : null,
    scores_visible: scoresVisible,
    answers_visible: answersVisible,
    can_edit: access.canManage,
    submitted_students: access.managesCourse ? submittedStudents : null,
  };
}

/** `Quiz/{id}/CourseSpecificDetail/`: the quiz in one course with the caller's own attempt. */
export async function getCourseDetail(
  ctx: AppContext,
  actor: Actor,
  quizId: number,
  courseId: number,
): Promise<QuizInCourse> {
  const access = await getQuizCourseAccess(ctx.db, actor, { quizId, courseId });
  const c = access.context;
  const [questions, submitted] = await Promise.all([
    repo.listQuizQuestions(ctx.db, c.quizId, c.quizVersion),
    access.managesCourse ? countSubmittedStudents(ctx.db, c.id) : null,
  ]);
  return toQuizInCourse(access, totalsOf(questions), new Date(), submitted);
}

/**
 * `Quiz/CourseSpecific/`: the course's quizzes, upcoming ones included, for members of the course (404
 * otherwise); `hide_submitted` drops those the caller has submitted.
 */
export async function listCourseQuizzes(
  ctx: AppContext,
  actor: Actor,
  query: QuizCourseSpecificQuery,
): Promise<{ count: number; results: QuizInCourse[] }> {
  await getCourseRole(ctx.db, actor, query.course_id);
  const { rows } = await lists.listCourseQuizzes(ctx.db, query.course_id, actor.userId, {
    hide_submitted: query.hide_submitted,
    search: query.search || undefined,
    ordering: query.ordering,
  });
  const totals = await repo.questionTotals(
    ctx.db,
    rows.map((r) => r.quizId),
  );
  const now = new Date();
  const results = rows.flatMap((row) => {
    const access = resolveQuizCourseAccess(actor, row);
    return access ? [toQuizInCourse(access, totals.get(row.quizId)!, now, row.submittedStudents)] : [];
  });
  return { count: results.length, results };
}

const totalsOf = (questions: QuizQuestion[]): repo.QuestionTotals => ({
  count: questions.length,
  points: totalPoints(questions),
});

const contentError = (code: string, detail: string) => new HttpError(403, code, detail);

/**
 * Which questions a student may read now: while the quiz is open (a timed one once they started and
 * until their time is up) the `student` view; after closing or after their submission the `review` view
 * once answers are visible and only if they submitted; never before opening.
 */
export function studentMode(context: repo.QuizCourseContext, now: Date): QuestionMode {
  const attempt = context.attempt;
  if (attempt?.submittedAt || now.getTime() > context.closesAt.getTime()) {
    if (attempt?.submittedAt && hasPassed(context.answersVisibleAt, now)) return 'review';
    throw contentError(
      'answers_not_visible',
      attempt?.submittedAt
        ? 'The answers of this quiz are not visible yet.'
        : 'This quiz is closed; its answers are shown only to those who submitted, once review opens.',
    );
  }
  if (now.getTime() < context.opensAt.getTime()) throw notOpenYet();
  if (context.timeLimitMinutes !== null) {
    if (!attempt) {
      throw contentError(
        'quiz_not_started',
        'This quiz has a time limit: start it first (POST quiz-submissions/create/); the time counts from then.',
      );
    }
    if (now.getTime() > deadlineOf(context, attempt.startedAt).getTime() + GRACE_MS) throw timeIsUp();
  }
  return 'student';
}

/** `Quiz/{id}/QuizContent/`: the questions shaped for the caller and the moment. */
export async function getQuizContent(
  ctx: AppContext,
  actor: Actor,
  quizId: number,
  courseId: number,
): Promise<QuizContent> {
  const access = await getQuizCourseAccess(ctx.db, actor, { quizId, courseId });
  const c = access.context;
  const now = new Date();
  const mode = access.canManage ? 'editor' : studentMode(c, now);
  const questions = await repo.listQuizQuestions(ctx.db, c.quizId, c.quizVersion);
  return {
    quiz_course: toQuizCourse(c, now),
    title: c.quizTitle,
    description: c.quizDescription,
    questions: questionViews(questions, mode, actor.userId),
    my_submission: c.attempt ? toMySubmission(c.attempt, c, visibilityOf(access, now).scoresVisible) : null,
  };
}
