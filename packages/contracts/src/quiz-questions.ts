import { z } from 'zod';
import { markdown, str, text } from './common.ts';

/* Limits of quizzes (docs/quizzes.md explains the choices). */
export const MAX_QUESTIONS = 200;
export const MAX_OPTIONS = 20;
export const MAX_SHORT_TEXT_ANSWER = 500;
export const MAX_ACCEPTED_ANSWERS = 20;
/** Seconds after the time limit (or the closing time) a submission sent on time may take to arrive. */
export const QUIZ_GRACE_SECONDS = 30;

export const QUESTION_KINDS = [
  'single',
  'multiple',
  'true_false',
  'short_text',
  'numeric',
  'ordering',
] as const;
export const QuestionKind = z.enum(QUESTION_KINDS);
export type QuestionKind = z.infer<typeof QuestionKind>;

/** An option of a choice or ordering question. `id` is chosen by the editor's page ('a', 'b', …). */
export const QuestionOption = z.strictObject({
  id: str()
    .min(1)
    .max(20)
    .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, "_" and "-".'),
  text: str().trim().normalize('NFC').min(1).max(2000),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

/**
 * The answer key of each kind. `short_text` patterns are wildcards: `*` stands for zero or more characters
 * (never regular expressions, which an editor could write to hang the server).
 */
export const AnswerKeySingle = z.strictObject({ correct: str().min(1).max(20) });
export const AnswerKeyMultiple = z.strictObject({
  correct: z.array(str().min(1).max(20)).min(1).max(MAX_OPTIONS),
});
export const AnswerKeyTrueFalse = z.strictObject({ correct: z.boolean() });
export const AnswerKeyShortText = z.strictObject({
  mode: z.enum(['exact', 'pattern']),
  accepted: z
    .array(str().trim().normalize('NFC').min(1).max(MAX_SHORT_TEXT_ANSWER))
    .min(1)
    .max(MAX_ACCEPTED_ANSWERS),
  case_sensitive: z.boolean(),
});
export const AnswerKeyNumeric = z.strictObject({
  value: z.number().finite(),
  /** Absolute: an answer within value ± tolerance is correct. */
  tolerance: z.number().finite().min(0),
});
export const AnswerKeyOrdering = z.strictObject({
  order: z.array(str().min(1).max(20)).min(2).max(MAX_OPTIONS),
});

const questionInputCommon = {
  prompt: text(20_000),
  points: z.number().int().min(0).max(1000).default(1),
  shuffle_options: z.boolean().default(false),
  explanation: markdown(20_000).default(''),
};

/**
 * A question as an editor writes it. The service checks that keys name existing options, that an
 * ordering key is a permutation of its options, and that choice questions have at least two options.
 */
export const QuestionInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('single'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeySingle,
  }),
  z.strictObject({
    kind: z.literal('multiple'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeyMultiple,
  }),
  z.strictObject({
    kind: z.literal('true_false'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyTrueFalse,
  }),
  z.strictObject({
    kind: z.literal('short_text'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyShortText,
  }),
  z.strictObject({
    kind: z.literal('numeric'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyNumeric,
  }),
  z.strictObject({
    kind: z.literal('ordering'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeyOrdering,
  }),
]);
export type QuestionInput = z.infer<typeof QuestionInput>;

export const AnswerKey = z.union([
  AnswerKeySingle,
  AnswerKeyMultiple,
  AnswerKeyTrueFalse,
  AnswerKeyShortText,
  AnswerKeyNumeric,
  AnswerKeyOrdering,
]);
export type AnswerKey = z.infer<typeof AnswerKey>;

const questionCommon = {
  id: z.number().int(),
  position: z.number().int(),
  kind: QuestionKind,
  /** Markdown. */
  prompt: z.string(),
  points: z.number().int(),
  /** In the order this caller sees them: shuffled per student when `shuffle_options`. */
  options: z.array(z.object({ id: z.string(), text: z.string() })),
};

/**
 * Role- and time-shaped questions: editors get the key; a student before review opens gets the
 * `student` view, whose schema has no key or explanation, so neither can leak; `review` adds both.
 */
export const QuestionEditorView = z
  .object({
    view: z.literal('editor'),
    ...questionCommon,
    shuffle_options: z.boolean(),
    answer_key: AnswerKey,
    explanation: z.string(),
  })
  .meta({ id: 'QuestionEditorView' });
export const QuestionStudentView = z
  .object({ view: z.literal('student'), ...questionCommon })
  .meta({ id: 'QuestionStudentView' });
export const QuestionReviewView = z
  .object({ view: z.literal('review'), ...questionCommon, answer_key: AnswerKey, explanation: z.string() })
  .meta({ id: 'QuestionReviewView' });
export const Question = z.discriminatedUnion('view', [
  QuestionEditorView,
  QuestionStudentView,
  QuestionReviewView,
]);
export type Question = z.infer<typeof Question>;
