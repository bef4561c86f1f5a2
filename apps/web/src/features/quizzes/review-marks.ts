import type { AnswerKey, AnswerValue } from '@kadai/contracts';
import type { AskedQuestion } from './answers.ts';

/** One option of a reviewed choice question: whether it was chosen, and whether it is a correct one. */
export interface OptionMark {
  id: string;
  text: string;
  chosen: boolean;
  /** Null while the answer key is not visible to the reader. */
  correct: boolean | null;
}

/**
 * Every option of a single, multiple or true/false question with the answer's choice(s) and the key's
 * correct option(s) marked; null for the other kinds, whose answers are text, a number or an order.
 * True/false lists True and False as its two options.
 */
export function choiceMarks(
  question: AskedQuestion,
  answer: AnswerValue,
  key: AnswerKey | null,
  booleanText: (value: boolean) => string,
): OptionMark[] | null {
  const correct = key !== null && 'correct' in key ? key.correct : null;
  switch (question.kind) {
    case 'true_false':
      return [true, false].map((value) => ({
        id: String(value),
        text: booleanText(value),
        chosen: answer === value,
        correct: typeof correct === 'boolean' ? correct === value : null,
      }));
    case 'single':
      return question.options.map((option) => ({
        id: option.id,
        text: option.text,
        chosen: answer === option.id,
        correct: typeof correct === 'string' ? correct === option.id : null,
      }));
    case 'multiple':
      return question.options.map((option) => ({
        id: option.id,
        text: option.text,
        chosen: Array.isArray(answer) && answer.includes(option.id),
        correct: Array.isArray(correct) ? correct.includes(option.id) : null,
      }));
    default:
      return null;
  }
}

/**
 * How an option is marked: chosen and right, chosen and wrong, chosen while the key is hidden, correct
 * but not chosen, or neither.
 */
export type Mark = 'right' | 'wrong' | 'chosen' | 'correct' | 'none';

export function markOf(option: Pick<OptionMark, 'chosen' | 'correct'>): Mark {
  if (option.chosen) return option.correct === null ? 'chosen' : option.correct ? 'right' : 'wrong';
  return option.correct === true ? 'correct' : 'none';
}
