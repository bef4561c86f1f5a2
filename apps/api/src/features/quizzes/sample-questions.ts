import type { AnswerValue } from '@kadai/contracts';
import type { QuizQuestion } from './questions.ts';

/* Questions of every kind with right and wrong answers, for tests (no database here: unit tests use it). */

/** One question of every kind, as an editor would send them (positions 0–6). */
export const ALL_KINDS: unknown[] = [
  {
    kind: 'single',
    prompt: 'What is 2 + 2?',
    points: 1,
    shuffle_options: true,
    options: [
      { id: 'a', text: '3' },
      { id: 'b', text: '4' },
      { id: 'c', text: '5' },
    ],
    answer_key: { correct: 'b' },
    explanation: '2 + 2 = 4.',
  },
  {
    kind: 'multiple',
    prompt: 'Which are programming languages?',
    points: 2,
    options: [
      { id: 'py', text: 'Python' },
      { id: 'html', text: 'HTML' },
      { id: 'rs', text: 'Rust' },
      { id: 'css', text: 'CSS' },
    ],
    answer_key: { correct: ['py', 'rs'] },
  },
  { kind: 'true_false', prompt: 'Python lists are mutable.', answer_key: { correct: true } },
  {
    kind: 'short_text',
    prompt: 'The keyword that defines a function?',
    answer_key: { mode: 'exact', accepted: ['def'], case_sensitive: false },
  },
  {
    kind: 'short_text',
    prompt: 'Name a sorting algorithm ending in "sort".',
    answer_key: { mode: 'pattern', accepted: ['*sort'], case_sensitive: false },
  },
  {
    kind: 'numeric',
    prompt: 'π to two decimals?',
    points: 2,
    answer_key: { value: 3.14, tolerance: 0.005 },
  },
  {
    kind: 'ordering',
    prompt: 'Order the steps of running a query.',
    points: 3,
    shuffle_options: true,
    options: [
      { id: 'parse', text: 'Parse' },
      { id: 'plan', text: 'Plan' },
      { id: 'run', text: 'Execute' },
    ],
    answer_key: { order: ['parse', 'plan', 'run'] },
  },
];
/** 1 + 2 + 1 + 1 + 1 + 2 + 3. */
export const ALL_KINDS_POINTS = 11;

/** Right answers by position, and wrong ones of the right shape. */
export const RIGHT: AnswerValue[] = [
  'b',
  ['rs', 'py'],
  true,
  '  DEF ',
  'Quick   Sort',
  3.1416,
  ['parse', 'plan', 'run'],
];
export const WRONG: AnswerValue[] = [
  'a',
  ['py'],
  false,
  'lambda',
  'bogosearch',
  2.5,
  ['plan', 'parse', 'run'],
];

export const answersFor = (questions: Pick<QuizQuestion, 'id'>[], values: AnswerValue[]) =>
  questions.map((q, i) => ({ question: q.id, answer: values[i] ?? null }));
