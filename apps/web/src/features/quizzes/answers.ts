import { AnswerValue, type Question, type SubmitQuizRequest } from '@kadai/contracts';

/** The student's answers so far, by question id. Missing or null: not answered. */
export type Answers = Readonly<Record<number, AnswerValue>>;

/** What answering needs to know of a question; the editor, student and review views all have it. */
export type AskedQuestion = Pick<Question, 'id' | 'kind' | 'options'>;

function optionIds(question: AskedQuestion): Set<string> {
  return new Set(question.options.map((option) => option.id));
}

function isStringList(value: AnswerValue): value is string[] {
  return Array.isArray(value);
}

/** Every option exactly once. */
function isPermutation(value: readonly string[], question: AskedQuestion): boolean {
  const ids = optionIds(question);
  return (
    value.length === ids.size && new Set(value).size === value.length && value.every((id) => ids.has(id))
  );
}

/**
 * Whether a value has the right shape for the kind of question, answered or not (an empty choice list
 * or empty text is still a value of the right shape); used when restoring a saved draft.
 */
function fitsKind(question: AskedQuestion, value: AnswerValue): boolean {
  if (value === null) return true;
  switch (question.kind) {
    case 'single':
      return typeof value === 'string' && optionIds(question).has(value);
    case 'multiple': {
      const ids = optionIds(question);
      return isStringList(value) && value.every((id) => ids.has(id));
    }
    case 'true_false':
      return typeof value === 'boolean';
    case 'short_text':
      return typeof value === 'string';
    case 'numeric':
      return typeof value === 'number' && Number.isFinite(value);
    case 'ordering':
      return isStringList(value) && isPermutation(value, question);
  }
}

/**
 * Answered as the server counts it: a choice made, at least one box ticked, true or false picked, text
 * that is not only spaces, a number, or an order the student set (see `orderOf`).
 */
export function isAnswered(question: AskedQuestion, value: AnswerValue | undefined): boolean {
  if (value === undefined || value === null || !fitsKind(question, value)) return false;
  if (question.kind === 'multiple') return isStringList(value) && value.length > 0;
  if (question.kind === 'short_text') return typeof value === 'string' && value.trim() !== '';
  return true;
}

/** Ids of the questions still to answer, in the order they are asked. */
export function unansweredQuestions(questions: readonly AskedQuestion[], answers: Answers): number[] {
  return questions.filter((question) => !isAnswered(question, answers[question.id])).map((q) => q.id);
}

export function answeredCount(questions: readonly AskedQuestion[], answers: Answers): number {
  return questions.length - unansweredQuestions(questions, answers).length;
}

/**
 * The order an ordering question shows: the student's once they set one, else the options as served
 * (shuffled by the server). It counts as answered only once the student moved an item or kept the order.
 */
export function orderOf(question: AskedQuestion, value: AnswerValue | undefined): string[] {
  if (value !== undefined && value !== null && isStringList(value) && isPermutation(value, question)) {
    return [...value];
  }
  return question.options.map((option) => option.id);
}

/** The list with the item at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveItem<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  const next = [...list];
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return next;
  next.splice(target, 0, ...next.splice(index, 1));
  return next;
}

/**
 * A number typed by a person; full-width digits and signs (a Japanese keyboard) are read too. Null when
 * it is not a plain finite number (no thousands separators: "1,500" is ambiguous).
 */
export function parseNumber(text: string): number | null {
  const normalised = text
    .normalize('NFKC')
    .trim()
    .replace(/^\u2212/, '-');
  if (normalised === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(normalised)) return null;
  const value = Number(normalised);
  return Number.isFinite(value) ? value : null;
}

/** The request that hands in the answers: one entry per question, text trimmed. */
export function toSubmitRequest(
  quizCourseId: number,
  questions: readonly AskedQuestion[],
  answers: Answers,
): SubmitQuizRequest {
  return {
    quiz_course: quizCourseId,
    answers: questions.map((question) => {
      const value = answers[question.id];
      if (!isAnswered(question, value) || value === undefined) return { question: question.id, answer: null };
      return { question: question.id, answer: typeof value === 'string' ? value.trim() : value };
    }),
  };
}

/* ─── A draft in this tab's sessionStorage, so a reload does not lose the answers ─── */

const STORAGE_PREFIX = 'kadai-quiz-answers-';

/** One draft per person and quiz course. */
export function draftKey(userId: number | null, quizCourseId: number): string {
  return `${STORAGE_PREFIX}${userId ?? 'anonymous'}-${quizCourseId}`;
}

export function saveDraft(key: string, answers: Answers): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(answers));
  } catch {
    // Storage full or disabled: the answers live only as long as the page.
  }
}

export function clearDraft(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing to clear.
  }
}

/**
 * The saved answers of these questions. Anything that no longer fits (a question removed, an option
 * renamed, a value of the wrong shape, storage that is not JSON) is dropped rather than trusted.
 */
export function restoreDraft(key: string, questions: readonly AskedQuestion[]): Record<number, AnswerValue> {
  let raw: unknown;
  try {
    raw = JSON.parse(sessionStorage.getItem(key) ?? '{}');
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const saved = new Map(Object.entries(raw));
  const restored: Record<number, AnswerValue> = {};
  for (const question of questions) {
    const parsed = AnswerValue.safeParse(saved.get(String(question.id)));
    if (parsed.success && parsed.data !== null && fitsKind(question, parsed.data)) {
      restored[question.id] = parsed.data;
    }
  }
  return restored;
}
