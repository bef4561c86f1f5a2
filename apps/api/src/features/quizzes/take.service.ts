import type {
  QuizSubmission,
  QuizSubmissionCreate,
  QuizSubmissionDetail,
  SubmitQuizRequest,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, badRequest, conflict, forbidden } from '../../lib/errors.ts';
import {
  alreadySubmitted,
  assertAcceptsAnswers,
  assertCanStart,
  getQuizCourseAccess,
  type QuizCourseAccess,
} from './quiz-access.ts';
import { visibilityOf } from './quiz-content.service.ts';
import { questionViews, toQuizSubmission } from './quiz-shape.ts';
import type { QuizQuestion } from './questions.ts';
import { checkAnswer, scoreAnswer, totalPoints, type ScoredAnswer } from './scoring.ts';
import * as attempts from './attempts.repo.ts';
import * as repo from './quizzes.repo.ts';

export const UNANSWERED_DETAIL = 'Please answer all questions before submitting.';

/** Only students of the course who do not manage the quiz take it; editors preview it through QuizContent. */
function requireTaker(access: QuizCourseAccess): void {
  if (!access.isTaker) {
    throw forbidden(
      'Only students of the course take quizzes; editors and staff preview them through QuizContent.',
    );
  }
}

/**
 * `POST quiz-submissions/create/`: starts the caller's attempt (the time limit counts from here) — 201;
 * an attempt already in progress is answered with 200 and itself; a submitted one with 409.
 */
export async function startAttempt(
  ctx: AppContext,
  actor: Actor,
  body: QuizSubmissionCreate,
): Promise<{ created: boolean; submission: QuizSubmission }> {
  const access = await getQuizCourseAccess(ctx.db, actor, { quizCourseId: body.quiz_course });
  requireTaker(access);
  const c = access.context;
  const now = new Date();
  if (c.attempt?.submittedAt) throw alreadySubmitted();
  assertCanStart(c, now);
  const key = { quizCourseId: c.id, userId: actor.userId };
  const inserted = c.attempt ? null : await attempts.insertAttempt(ctx.db, key, now);
  // Two starts at once: the second finds the first's attempt.
  const attempt = c.attempt ?? inserted ?? (await attempts.findAttempt(ctx.db, key));
  if (!attempt) throw new Error('The attempt vanished while it was being started.');
  if (attempt.submittedAt) throw alreadySubmitted();
  const { scoresVisible, answersVisible } = visibilityOf(access, now);
  const questions = await repo.listQuizQuestions(ctx.db, c.quizId, c.quizVersion);
  return {
    created: inserted !== null,
    submission: toQuizSubmission({
      attempt,
      window: c,
      user: c.viewer,
      maxScore: totalPoints(questions),
      scoresVisible,
      answersVisible,
    }),
  };
}

/**
 * The answers checked against the questions: an answer to a question of another quiz, or of the wrong
 * shape, is 400 `invalid` naming it; a question left without an answer is 400 `unanswered`.
 */
export function checkAndScore(
  questions: QuizQuestion[],
  answers: SubmitQuizRequest['answers'],
): ScoredAnswer[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const foreign = answers.filter((a) => !byId.has(a.question)).map((a) => a.question);
  if (foreign.length > 0) {
    const message = `Not a question of this quiz: ${foreign.join(', ')}.`;
    throw badRequest(message, { answers: [message] });
  }
  const given = new Map(answers.map((a) => [a.question, a.answer]));
  const invalid: Record<string, string[]> = {};
  const unanswered: QuizQuestion[] = [];
  for (const question of questions) {
    const check = checkAnswer(question, given.get(question.id));
    if (check.ok) continue;
    if (check.reason === 'invalid') invalid[`answers.${question.id}`] = [check.message];
    else unanswered.push(question);
  }
  const wrong = Object.keys(invalid);
  if (wrong.length > 0) {
    const names = wrong.map((k) => {
      const q = byId.get(Number(k.slice('answers.'.length)))!;
      return `question ${q.position + 1} (id ${q.id}): ${invalid[k]![0]}`;
    });
    throw badRequest(`Invalid answer to ${names.join('; ')}`, invalid);
  }
  if (unanswered.length > 0) {
    throw new HttpError(400, 'unanswered', UNANSWERED_DETAIL, {
      unanswered: unanswered.map((q) => String(q.id)),
    });
  }
  return questions.map((q) => scoreAnswer(q, given.get(q.id)!));
}

/** PostgreSQL's foreign-key violation, as pg or PGlite report it (possibly wrapped by drizzle). */
function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('code' in error && error.code === '23503') return true;
  return 'cause' in error && isForeignKeyViolation(error.cause);
}

/**
 * `POST Submission/SubmitQuiz/`: checks, scores, then in one transaction creates the attempt if there is
 * none and hands it in with ONE conditional UPDATE (… WHERE submitted_at IS NULL) before storing the
 * answers: of two submissions sent at once exactly one is accepted, the other gets 409.
 */
export async function submitQuiz(
  ctx: AppContext,
  actor: Actor,
  body: SubmitQuizRequest,
): Promise<QuizSubmissionDetail> {
  const access = await getQuizCourseAccess(ctx.db, actor, { quizCourseId: body.quiz_course });
  requireTaker(access);
  const c = access.context;
  const now = new Date();
  if (c.attempt?.submittedAt) throw alreadySubmitted();
  assertAcceptsAnswers(c, c.attempt?.startedAt ?? now, now);
  const questions = await repo.listQuizQuestions(ctx.db, c.quizId, c.quizVersion);
  const scored = checkAndScore(questions, body.answers);
  const score = scored.reduce((sum, a) => sum + a.points, 0);
  const maxScore = totalPoints(questions);
  const key = { quizCourseId: c.id, userId: actor.userId };
  const attempt = await ctx.db
    .transaction(async (tx) => {
      if (!c.attempt) await attempts.insertAttempt(tx, key, now);
      const submitted = await attempts.submitAttempt(tx, key, { submittedAt: now, score, maxScore }, scored);
      if (!submitted) throw alreadySubmitted();
      return submitted;
    })
    .catch((error: unknown) => {
      // The questions were replaced between reading them and storing the answers (before anyone started).
      if (isForeignKeyViolation(error)) {
        throw conflict(
          'This quiz changed while you were answering it; reload it and answer again.',
          'quiz_changed',
        );
      }
      throw error;
    });
  const { scoresVisible, answersVisible } = visibilityOf(access, now);
  return {
    ...toQuizSubmission({ attempt, window: c, user: c.viewer, maxScore, scoresVisible, answersVisible }),
    questions: questionViews(questions, answersVisible ? 'review' : 'student', actor.userId),
    answers: scored.map((a) => ({
      question_id: a.questionId,
      answer: a.answer,
      is_correct: scoresVisible ? a.isCorrect : null,
      points: scoresVisible ? a.points : null,
    })),
  };
}
