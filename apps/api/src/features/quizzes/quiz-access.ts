import { QUIZ_GRACE_SECONDS, type QuizState } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { HttpError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { listEditableCourseIds } from '../courses/courses.service.ts';
import * as repo from './quizzes.repo.ts';

/**
 * Who may do what with a quiz (docs/quizzes.md, "Access"):
 * - managers — staff, editors of at least one of its courses, its author — see every course of it,
 *   the questions with their keys, and change it;
 * - a student of one of its courses sees it (upcoming ones too) in the courses they study;
 * - everyone else is answered 404.
 * What is about one course (results, the course's submissions, its dates) needs editor rights on that
 * course (or staff), not only on the quiz.
 */
export interface QuizAccess {
  quiz: repo.QuizRow;
  canManage: boolean;
  /** The courses of the quiz the caller sees. */
  links: repo.QuizCourseView[];
}

export function resolveQuizAccess(
  actor: Pick<Actor, 'isStaff' | 'userId'>,
  quiz: repo.QuizRow,
  links: repo.QuizCourseView[],
): QuizAccess | null {
  const canManage = actor.isStaff || quiz.createdBy === actor.userId || links.some((l) => l.isEditor);
  if (canManage) return { quiz, canManage, links };
  const studied = links.filter((l) => l.isStudent);
  return studied.length > 0 ? { quiz, canManage: false, links: studied } : null;
}

/** The quiz as the caller may see it; 404 when it does not exist or is not theirs to see. */
export async function getQuizAccess(db: Executor, actor: Actor, id: number): Promise<QuizAccess> {
  const quiz = await repo.findQuiz(db, id);
  if (!quiz) throw notFound();
  const access = resolveQuizAccess(actor, quiz, await repo.listQuizCourses(db, [id], actor.userId));
  if (!access) throw notFound();
  return access;
}

export function requireManager(access: { canManage: boolean }): void {
  if (!access.canManage)
    throw forbidden('Only editors of its courses, its author and staff can change this quiz.');
}

/** One quiz course as the caller stands to it. */
export interface QuizCourseAccess {
  context: repo.QuizCourseContext;
  /** Manages the quiz: editor views of its questions, every course of it. */
  canManage: boolean;
  /** Staff or an editor of this course: its results, its students' submissions, its dates. */
  managesCourse: boolean;
  /** A student of the course who does not manage the quiz: the only one who takes it. */
  isTaker: boolean;
}

export function resolveQuizCourseAccess(
  actor: Pick<Actor, 'isStaff' | 'userId'>,
  context: repo.QuizCourseContext,
): QuizCourseAccess | null {
  const canManage = actor.isStaff || context.quizCreatedBy === actor.userId || context.editsQuiz;
  if (!canManage && !context.isStudent) return null;
  return {
    context,
    canManage,
    managesCourse: actor.isStaff || context.isEditor,
    isTaker: !canManage && context.isStudent,
  };
}

/** The quiz course (by id, or by quiz and course) as the caller may see it; 404 otherwise. */
export async function getQuizCourseAccess(
  db: Executor,
  actor: Actor,
  where: { quizCourseId: number } | { quizId: number; courseId: number },
): Promise<QuizCourseAccess> {
  const context = await repo.findQuizCourseContext(db, where, actor.userId);
  const access = context && resolveQuizCourseAccess(actor, context);
  if (!access) throw notFound();
  return access;
}

export function requireCourseManager(access: QuizCourseAccess): void {
  if (!access.managesCourse) throw forbidden('Only editors of this course and staff can do this.');
}

/**
 * Every course given must be one the caller edits (staff: every existing course). Unknown courses are
 * answered the same way, so the answer says nothing about courses the caller cannot see.
 */
export async function assertEditsCourses(
  db: Executor,
  actor: Actor,
  courseIds: number[],
  field = 'courses',
): Promise<void> {
  const unique = [...new Set(courseIds)];
  const allowed = new Set(await listEditableCourseIds(db, actor, unique));
  const refused = unique.filter((id) => !allowed.has(id));
  if (refused.length === 0) return;
  const message = `You cannot give quizzes to course ${refused.join(', ')}: it does not exist or you are not its editor.`;
  throw new HttpError(actor.isStaff ? 400 : 403, actor.isStaff ? 'invalid' : 'permission_denied', message, {
    [field]: [message],
  });
}

/* ─── Time ─────────────────────────────────────────────────────────────────────────────────────── */

export const GRACE_MS = QUIZ_GRACE_SECONDS * 1000;

type Window = Pick<repo.QuizCourseView, 'opensAt' | 'closesAt' | 'timeLimitMinutes'>;

export function stateOf(w: Pick<Window, 'opensAt' | 'closesAt'>, now: Date): QuizState {
  if (now.getTime() < w.opensAt.getTime()) return 'upcoming';
  return now.getTime() <= w.closesAt.getTime() ? 'open' : 'closed';
}

/** The last moment an answer is due: the closing time, or the end of the time limit if that is first. */
export function deadlineOf(w: Window, startedAt: Date): Date {
  if (w.timeLimitMinutes === null) return w.closesAt;
  return new Date(Math.min(w.closesAt.getTime(), startedAt.getTime() + w.timeLimitMinutes * 60_000));
}

/** A visibility date (scores, answers): null means not decided, so hidden. */
export const hasPassed = (date: Date | null, now: Date) => date !== null && date.getTime() <= now.getTime();

const quizError = (code: string, detail: string) => new HttpError(403, code, detail);
export const notOpenYet = () => quizError('quiz_not_open', 'This quiz is not open yet.');
export const quizClosed = () => quizError('quiz_closed', 'This quiz is closed.');
export const timeIsUp = () => quizError('time_limit_exceeded', 'Your time for this quiz is over.');
export const alreadySubmitted = () => conflict('Only allow submitting once.', 'already_submitted');

/** A new attempt starts only while the quiz is open. */
export function assertCanStart(w: Window, now: Date): void {
  if (now.getTime() < w.opensAt.getTime()) throw notOpenYet();
  if (now.getTime() > w.closesAt.getTime()) throw quizClosed();
}

/**
 * Answers are accepted from opening until the deadline plus QUIZ_GRACE_SECONDS, so what was sent in time
 * over a slow network still counts. `startedAt` is the attempt's start (now when there is none yet).
 */
export function assertAcceptsAnswers(w: Window, startedAt: Date, now: Date): void {
  if (now.getTime() < w.opensAt.getTime()) throw notOpenYet();
  if (now.getTime() > w.closesAt.getTime() + GRACE_MS) throw quizClosed();
  if (now.getTime() > deadlineOf(w, startedAt).getTime() + GRACE_MS) throw timeIsUp();
}
