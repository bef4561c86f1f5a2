import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type {
  MyQuizSubmission,
  Question,
  QuestionEditorView,
  QuestionOption,
  Quiz,
  QuizCourse,
  QuizSubmission,
} from '@kadai/contracts';
import type { QuizAccess } from './quiz-access.ts';
import { deadlineOf, stateOf } from './quiz-access.ts';
import type { QuizQuestion } from './questions.ts';
import type { AttemptRow, QuestionTotals, QuizCourseView } from './quizzes.repo.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toQuizCourse(view: QuizCourseView, now: Date): QuizCourse {
  return {
    id: view.id,
    quiz_id: view.quizId,
    quiz_title: view.quizTitle,
    course_id: view.courseId,
    course_title: view.courseTitle,
    opens_at: view.opensAt.toISOString(),
    closes_at: view.closesAt.toISOString(),
    time_limit_minutes: view.timeLimitMinutes,
    scores_visible_at: iso(view.scoresVisibleAt),
    answers_visible_at: iso(view.answersVisibleAt),
    state: stateOf(view, now),
    extended: view.extended,
  };
}

/* ─── Questions ───────────────────────────────────────────────────────────────────────────────── */

/** A small fast generator (mulberry32): the same seed gives the same sequence on every call. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The options in the order this student sees them: shuffled (Fisher–Yates) from a seed of the student
 * and the question, so reloading the page, the review and every device show the same order.
 */
export function optionsFor(question: QuizQuestion, userId: number): QuestionOption[] {
  if (!question.shuffleOptions || question.options.length < 2) return question.options;
  const seed = createHash('sha256')
    .update(`quiz-option-order:${userId}:${question.id}`)
    .digest()
    .readUInt32BE(0);
  const random = generator(seed);
  const order = [...question.options];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

const common = (q: QuizQuestion, options: QuestionOption[]) => ({
  id: q.id,
  position: q.position,
  kind: q.kind,
  prompt: q.prompt,
  points: q.points,
  options: options.map((o) => ({ id: o.id, text: o.text })),
});

/** Everything, in the editor's order. */
export function editorQuestion(q: QuizQuestion): z.infer<typeof QuestionEditorView> {
  return {
    view: 'editor',
    ...common(q, q.options),
    shuffle_options: q.shuffleOptions,
    answer_key: q.key,
    explanation: q.explanation,
  };
}

/** What a student answers: no key, no explanation (the schema has no place for them). */
export function studentQuestion(q: QuizQuestion, userId: number): Question {
  return { view: 'student', ...common(q, optionsFor(q, userId)) };
}

/** Once answers are visible: the key and explanation too, options in the order the student had them. */
export function reviewQuestion(q: QuizQuestion, userId: number): Question {
  return {
    view: 'review',
    ...common(q, optionsFor(q, userId)),
    answer_key: q.key,
    explanation: q.explanation,
  };
}

export type QuestionMode = 'editor' | 'student' | 'review';

export function questionViews(questions: QuizQuestion[], mode: QuestionMode, userId: number): Question[] {
  if (mode === 'editor') return questions.map(editorQuestion);
  return questions.map((q) => (mode === 'review' ? reviewQuestion(q, userId) : studentQuestion(q, userId)));
}

/* ─── Quizzes ─────────────────────────────────────────────────────────────────────────────────── */

/** The editor view (questions with keys) for managers; the student view otherwise. */
export function toQuiz(
  access: QuizAccess,
  totals: QuestionTotals,
  extra: { questions: QuizQuestion[]; attempts: number },
  now: Date,
): Quiz {
  const q = access.quiz;
  const fields = {
    id: q.id,
    title: q.title,
    description: q.description,
    created_by: q.createdBy,
    created_at: q.createdAt.toISOString(),
    updated_at: q.updatedAt.toISOString(),
    question_count: totals.count,
    total_points: totals.points,
    courses: access.links.map((l) => toQuizCourse(l, now)),
  };
  if (!access.canManage) return { view: 'student', ...fields };
  return {
    view: 'editor',
    ...fields,
    questions: extra.questions.map(editorQuestion),
    submission_count: extra.attempts,
  };
}

/* ─── Attempts ────────────────────────────────────────────────────────────────────────────────── */

type Window = Pick<QuizCourseView, 'opensAt' | 'closesAt' | 'timeLimitMinutes'>;

export function toMySubmission(attempt: AttemptRow, window: Window, showsScore: boolean): MyQuizSubmission {
  return {
    id: attempt.id,
    status: attempt.submittedAt ? 'submitted' : 'in_progress',
    started_at: attempt.startedAt.toISOString(),
    submitted_at: iso(attempt.submittedAt),
    deadline: deadlineOf(window, attempt.startedAt).toISOString(),
    score: showsScore ? attempt.score : null,
  };
}

export interface SubmissionShapeInput {
  attempt: AttemptRow;
  window: Window & { quizId: number; quizTitle: string; courseId: number };
  user: { id: number; email: string; firstName: string; lastName: string };
  maxScore: number;
  scoresVisible: boolean;
  answersVisible: boolean;
}

export function toQuizSubmission(s: SubmissionShapeInput): QuizSubmission {
  return {
    id: s.attempt.id,
    quiz_course_id: s.attempt.quizCourseId,
    quiz_id: s.window.quizId,
    quiz_title: s.window.quizTitle,
    course_id: s.window.courseId,
    user: { id: s.user.id, email: s.user.email, first_name: s.user.firstName, last_name: s.user.lastName },
    status: s.attempt.submittedAt ? 'submitted' : 'in_progress',
    started_at: s.attempt.startedAt.toISOString(),
    submitted_at: iso(s.attempt.submittedAt),
    deadline: deadlineOf(s.window, s.attempt.startedAt).toISOString(),
    score: s.scoresVisible ? s.attempt.score : null,
    max_score: s.attempt.maxScore ?? s.maxScore,
    scores_visible: s.scoresVisible,
    answers_visible: s.answersVisible,
  };
}
