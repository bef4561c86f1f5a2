import { z } from 'zod';
import {
  AnswerKeyMultiple,
  AnswerKeyNumeric,
  AnswerKeyOrdering,
  AnswerKeyShortText,
  AnswerKeySingle,
  AnswerKeyTrueFalse,
  QuestionOption,
  type QuestionInput,
  type QuestionKind,
} from '@kadai/contracts';
import { badRequest } from '../../lib/errors.ts';

/**
 * A stored question with its answer key checked against its kind: the jsonb columns are parsed once
 * when read, so scoring and shaping work on typed values (a row that does not parse is a bug, not input).
 */
const Keyed = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single'), key: AnswerKeySingle }),
  z.object({ kind: z.literal('multiple'), key: AnswerKeyMultiple }),
  z.object({ kind: z.literal('true_false'), key: AnswerKeyTrueFalse }),
  z.object({ kind: z.literal('short_text'), key: AnswerKeyShortText }),
  z.object({ kind: z.literal('numeric'), key: AnswerKeyNumeric }),
  z.object({ kind: z.literal('ordering'), key: AnswerKeyOrdering }),
]);
export type KeyedQuestion = z.infer<typeof Keyed>;
const Options = z.array(QuestionOption);

export interface QuestionBase {
  id: number;
  quizId: number;
  position: number;
  prompt: string;
  points: number;
  shuffleOptions: boolean;
  options: QuestionOption[];
  explanation: string;
}
export type QuizQuestion = QuestionBase & KeyedQuestion;

export interface QuestionRowData {
  id: number;
  quizId: number;
  position: number;
  kind: QuestionKind;
  prompt: string;
  points: number;
  shuffleOptions: boolean;
  options: unknown;
  answerKey: unknown;
  explanation: string;
}

export function parseQuestionRow(row: QuestionRowData): QuizQuestion {
  const base: QuestionBase = {
    id: row.id,
    quizId: row.quizId,
    position: row.position,
    prompt: row.prompt,
    points: row.points,
    shuffleOptions: row.shuffleOptions,
    options: Options.parse(row.options),
    explanation: row.explanation,
  };
  return { ...base, ...Keyed.parse({ kind: row.kind, key: row.answerKey }) };
}

/** What the editor's list becomes in `quiz_questions` (positions 0, 1, 2, … in the order given). */
export interface NewQuestion {
  position: number;
  kind: QuestionKind;
  prompt: string;
  points: number;
  shuffleOptions: boolean;
  options: QuestionOption[];
  answerKey: QuestionInput['answer_key'];
  explanation: string;
}

/** Problems zod cannot see field by field: keys that name no option, an ordering that is not a permutation. */
function problemsOf(q: QuestionInput): string[] {
  const ids = q.options.map((o) => o.id);
  const known = new Set(ids);
  const problems: string[] = [];
  if (known.size !== ids.length) problems.push('Two options have the same id.');
  switch (q.kind) {
    case 'single':
      if (!known.has(q.answer_key.correct)) problems.push('The correct option is not one of the options.');
      break;
    case 'multiple': {
      const correct = q.answer_key.correct;
      if (new Set(correct).size !== correct.length) problems.push('A correct option is listed twice.');
      if (correct.some((id) => !known.has(id))) problems.push('A correct option is not one of the options.');
      break;
    }
    case 'ordering': {
      const order = q.answer_key.order;
      const isPermutation =
        order.length === ids.length &&
        new Set(order).size === order.length &&
        order.every((id) => known.has(id));
      if (!isPermutation) problems.push('The order must list every option exactly once.');
      break;
    }
    case 'short_text':
      if (
        q.answer_key.mode === 'pattern' &&
        q.answer_key.accepted.some((p) => p.replaceAll('*', '').trim() === '')
      ) {
        problems.push('A pattern must contain more than "*".');
      }
      break;
    default:
      break;
  }
  return problems;
}

/** Checks every question (400 naming `questions.{i}.answer_key`) and gives the rows to store. */
export function toNewQuestions(questions: QuestionInput[]): NewQuestion[] {
  const fields: Record<string, string[]> = {};
  questions.forEach((q, i) => {
    const problems = problemsOf(q);
    if (problems.length > 0) fields[`questions.${i}.answer_key`] = problems;
  });
  if (Object.keys(fields).length > 0) throw badRequest('Invalid input.', fields);
  return questions.map((q, position) => ({
    position,
    kind: q.kind,
    prompt: q.prompt,
    points: q.points,
    shuffleOptions: q.shuffle_options,
    options: q.options,
    answerKey: q.answer_key,
    explanation: q.explanation,
  }));
}
