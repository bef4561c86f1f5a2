import type { AnswerValue } from '@kadai/contracts';
import type { QuizQuestion } from './questions.ts';

/**
 * Checking and scoring one answer (docs/quizzes.md, "Scoring"). Pure functions: the submit service
 * calls them before its transaction, and the unit tests call them directly.
 */

export type AnswerCheck =
  { ok: true } | { ok: false; reason: 'unanswered' } | { ok: false; reason: 'invalid'; message: string };

const OK: AnswerCheck = { ok: true };
const UNANSWERED: AnswerCheck = { ok: false, reason: 'unanswered' };
const invalid = (message: string): AnswerCheck => ({ ok: false, reason: 'invalid', message });

/** Nothing given: null, a missing entry, blank text or an empty list, whatever the kind. */
export function isBlank(value: AnswerValue | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

const isStringList = (value: AnswerValue): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Whether the answer has the shape the question's kind asks for (not whether it is right). */
export function checkAnswer(question: QuizQuestion, value: AnswerValue | undefined): AnswerCheck {
  if (value === undefined || isBlank(value)) return UNANSWERED;
  const optionIds = new Set(question.options.map((o) => o.id));
  switch (question.kind) {
    case 'single':
      if (typeof value !== 'string') return invalid('Expected the id of one option.');
      return optionIds.has(value) ? OK : invalid('Not one of the options.');
    case 'multiple':
      if (!isStringList(value)) return invalid('Expected a list of option ids.');
      if (new Set(value).size !== value.length) return invalid('An option is chosen twice.');
      return value.every((id) => optionIds.has(id)) ? OK : invalid('Not one of the options.');
    case 'true_false':
      return typeof value === 'boolean' ? OK : invalid('Expected true or false.');
    case 'short_text':
      return typeof value === 'string' ? OK : invalid('Expected text.');
    case 'numeric':
      return typeof value === 'number' && Number.isFinite(value) ? OK : invalid('Expected a number.');
    case 'ordering': {
      const isPermutation =
        isStringList(value) &&
        value.length === optionIds.size &&
        new Set(value).size === value.length &&
        value.every((id) => optionIds.has(id));
      return isPermutation ? OK : invalid('Expected every option exactly once, in order.');
    }
  }
}

/**
 * Text as it is compared: Unicode NFKC (full-width "ＡＢＣ１" is "ABC1", as a Japanese keyboard may type
 * it), trimmed, every run of white space one space, and lower case unless the key is case-sensitive.
 */
export function normalizeText(text: string, caseSensitive: boolean): string {
  const collapsed = text.normalize('NFKC').trim().replace(/\s+/gu, ' ');
  return caseSensitive ? collapsed : collapsed.toLowerCase();
}

/**
 * `*` stands for any characters (none included); everything else is literal. Matched part by part with
 * indexOf: linear in the text for each part, so no pattern can make it backtrack.
 */
export function matchesWildcard(text: string, pattern: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return text === pattern;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    if (part === '') continue;
    const found = text.indexOf(part, position);
    if (found < 0 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}

/** Numbers typed as decimals rarely equal their binary form exactly: a hair of slack beyond the tolerance. */
const FLOAT_SLACK = 1e-9;

/** Whether a well-formed answer is right (all or nothing). */
export function isCorrectAnswer(question: QuizQuestion, value: AnswerValue): boolean {
  switch (question.kind) {
    case 'single':
      return value === question.key.correct;
    case 'multiple': {
      if (!isStringList(value)) return false;
      const chosen = new Set(value);
      const correct = new Set(question.key.correct);
      return chosen.size === correct.size && [...chosen].every((id) => correct.has(id));
    }
    case 'true_false':
      return value === question.key.correct;
    case 'short_text': {
      if (typeof value !== 'string') return false;
      const { mode, accepted, case_sensitive: caseSensitive } = question.key;
      const given = normalizeText(value, caseSensitive);
      return accepted.some((a) => {
        const expected = normalizeText(a, caseSensitive);
        return mode === 'exact' ? given === expected : matchesWildcard(given, expected);
      });
    }
    case 'numeric': {
      if (typeof value !== 'number') return false;
      const { value: target, tolerance } = question.key;
      return Math.abs(value - target) <= tolerance + FLOAT_SLACK * Math.max(1, Math.abs(target));
    }
    case 'ordering':
      return (
        isStringList(value) &&
        value.length === question.key.order.length &&
        value.every((id, i) => id === question.key.order[i])
      );
  }
}

export interface ScoredAnswer {
  questionId: number;
  answer: AnswerValue;
  isCorrect: boolean;
  points: number;
}

/** All or nothing per question: its points when right, 0 otherwise. */
export function scoreAnswer(question: QuizQuestion, value: AnswerValue): ScoredAnswer {
  const isCorrect = isCorrectAnswer(question, value);
  return { questionId: question.id, answer: value, isCorrect, points: isCorrect ? question.points : 0 };
}

export const totalPoints = (questions: Pick<QuizQuestion, 'points'>[]) =>
  questions.reduce((sum, q) => sum + q.points, 0);
