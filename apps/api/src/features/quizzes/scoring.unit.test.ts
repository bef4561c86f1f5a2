import { describe, expect, it } from 'vitest';
import { QuestionInput, type AnswerValue } from '@kadai/contracts';
import { toNewQuestions, type QuizQuestion } from './questions.ts';
import { parseQuestionRow } from './questions.ts';
import { checkAnswer, isCorrectAnswer, matchesWildcard, normalizeText, scoreAnswer } from './scoring.ts';
import { optionsFor } from './quiz-shape.ts';
import { ALL_KINDS, RIGHT, WRONG } from './sample-questions.ts';

/** Questions as the service stores and reads them, without a database. */
function questionsOf(inputs: unknown[]): QuizQuestion[] {
  return toNewQuestions(inputs.map((q) => QuestionInput.parse(q))).map((q, i) =>
    parseQuestionRow({ ...q, id: 100 + i, quizId: 1 }),
  );
}
const one = (input: unknown) => questionsOf([input])[0]!;
const options = [
  { id: 'a', text: 'A' },
  { id: 'b', text: 'B' },
  { id: 'c', text: 'C' },
];

describe('scoring', () => {
  const all = questionsOf(ALL_KINDS);

  it('gives each kind its points for a right answer and 0 for a wrong one', () => {
    expect(all.map((q, i) => scoreAnswer(q, RIGHT[i]!).points)).toEqual([1, 2, 1, 1, 1, 2, 3]);
    expect(all.map((q, i) => scoreAnswer(q, WRONG[i]!))).toEqual(
      all.map((q, i) => ({ questionId: q.id, answer: WRONG[i], isCorrect: false, points: 0 })),
    );
  });

  it('single: the one correct option', () => {
    const q = one({ kind: 'single', prompt: 'p', options, answer_key: { correct: 'b' } });
    expect(isCorrectAnswer(q, 'b')).toBe(true);
    expect(isCorrectAnswer(q, 'a')).toBe(false);
  });

  it('multiple: exactly the correct set, in any order, nothing more or less', () => {
    const q = one({ kind: 'multiple', prompt: 'p', options, answer_key: { correct: ['a', 'c'] } });
    expect(isCorrectAnswer(q, ['c', 'a'])).toBe(true);
    expect(isCorrectAnswer(q, ['a'])).toBe(false);
    expect(isCorrectAnswer(q, ['a', 'b', 'c'])).toBe(false);
  });

  it('true/false', () => {
    const q = one({ kind: 'true_false', prompt: 'p', answer_key: { correct: false } });
    expect(isCorrectAnswer(q, false)).toBe(true);
    expect(isCorrectAnswer(q, true)).toBe(false);
  });

  it('short text, exact: trimmed, white space collapsed, case ignored unless asked, NFKC', () => {
    const exact = (caseSensitive: boolean) =>
      one({
        kind: 'short_text',
        prompt: 'p',
        answer_key: { mode: 'exact', accepted: ['Hello World', 'hi'], case_sensitive: caseSensitive },
      });
    expect(isCorrectAnswer(exact(false), '  hello \n\t world ')).toBe(true);
    expect(isCorrectAnswer(exact(false), 'HI')).toBe(true);
    expect(isCorrectAnswer(exact(false), 'ｈｅｌｌｏ　ｗｏｒｌｄ')).toBe(true);
    expect(isCorrectAnswer(exact(false), 'hello worlds')).toBe(false);
    expect(isCorrectAnswer(exact(true), 'hello world')).toBe(false);
    expect(isCorrectAnswer(exact(true), ' Hello  World')).toBe(true);
  });

  it('short text, pattern: `*` is any characters, everything else literal', () => {
    const pattern = (accepted: string[], caseSensitive = false) =>
      one({
        kind: 'short_text',
        prompt: 'p',
        answer_key: { mode: 'pattern', accepted, case_sensitive: caseSensitive },
      });
    expect(isCorrectAnswer(pattern(['*sort']), 'Merge sort')).toBe(true);
    expect(isCorrectAnswer(pattern(['*sort']), 'sort')).toBe(true);
    expect(isCorrectAnswer(pattern(['*sort']), 'sorted')).toBe(false);
    expect(isCorrectAnswer(pattern(['a*b*c']), 'aXXbYYc')).toBe(true);
    expect(isCorrectAnswer(pattern(['a*b*c']), 'acb')).toBe(false);
    expect(isCorrectAnswer(pattern(['a.c']), 'abc')).toBe(false);
    expect(isCorrectAnswer(pattern(['(a+)+$*']), '(a+)+$ whatever')).toBe(true);
    expect(isCorrectAnswer(pattern(['*Sort'], true), 'merge sort')).toBe(false);
  });

  it('wildcards never overlap the prefix and the suffix, and never backtrack', () => {
    expect(matchesWildcard('ab', 'ab*ab')).toBe(false);
    expect(matchesWildcard('abab', 'ab*ab')).toBe(true);
    expect(matchesWildcard('aaa', 'a*a*a')).toBe(true);
    expect(matchesWildcard('aa', 'a*a*a')).toBe(false);
    const long = 'a'.repeat(500);
    const started = performance.now();
    expect(matchesWildcard(long, `${'*a'.repeat(20)}*b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('normalizes text', () => {
    expect(normalizeText('  A\u3000 B  ', false)).toBe('a b');
    expect(normalizeText('Ａ', true)).toBe('A');
  });

  it('numeric: within the absolute tolerance, decimals as typed', () => {
    const q = one({ kind: 'numeric', prompt: 'p', answer_key: { value: 10, tolerance: 0.5 } });
    expect([9.5, 10, 10.5, 9.49, 10.51, -10].map((x) => isCorrectAnswer(q, x))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const exact = one({ kind: 'numeric', prompt: 'p', answer_key: { value: 0.3, tolerance: 0 } });
    expect(isCorrectAnswer(exact, 0.1 + 0.2)).toBe(true);
    expect(isCorrectAnswer(exact, 0.31)).toBe(false);
  });

  it('ordering: exactly the key’s permutation', () => {
    const q = one({ kind: 'ordering', prompt: 'p', options, answer_key: { order: ['c', 'a', 'b'] } });
    expect(isCorrectAnswer(q, ['c', 'a', 'b'])).toBe(true);
    expect(isCorrectAnswer(q, ['a', 'b', 'c'])).toBe(false);
  });
});

describe('checkAnswer', () => {
  const all = questionsOf(ALL_KINDS);
  const reasons = (values: (AnswerValue | undefined)[]) =>
    all.map((q, i) => {
      const check = checkAnswer(q, values[i]);
      return check.ok ? 'ok' : check.reason;
    });

  it('accepts every well-formed answer, right or wrong', () => {
    expect(reasons(RIGHT)).toEqual(Array(7).fill('ok'));
    expect(reasons(WRONG)).toEqual(Array(7).fill('ok'));
  });

  it('calls null, missing, blank text and empty lists unanswered', () => {
    expect(reasons([null, [], undefined, '   ', '', null, []])).toEqual(Array(7).fill('unanswered'));
  });

  it('refuses answers of the wrong shape', () => {
    expect(reasons([['b'], 'py', 'true', 42, false, '3.14', 'parse'])).toEqual(Array(7).fill('invalid'));
    expect(reasons(['z', ['py', 'py'], 1, ['def'], ['x'], true, ['parse', 'plan']])).toEqual(
      Array(7).fill('invalid'),
    );
    expect(reasons(['b', ['py', 'nope'], true, 'def', 'x', Number.NaN, ['parse', 'parse', 'run']])).toEqual([
      'ok',
      'invalid',
      'ok',
      'ok',
      'ok',
      'invalid',
      'invalid',
    ]);
  });
});

describe('question keys', () => {
  it('refuses keys that name no option and orders that are not permutations', () => {
    const bad = [
      { kind: 'single', prompt: 'p', options, answer_key: { correct: 'z' } },
      { kind: 'multiple', prompt: 'p', options, answer_key: { correct: ['a', 'a'] } },
      { kind: 'ordering', prompt: 'p', options, answer_key: { order: ['a', 'b'] } },
      {
        kind: 'single',
        prompt: 'p',
        options: [...options, { id: 'a', text: 'again' }],
        answer_key: { correct: 'a' },
      },
      {
        kind: 'short_text',
        prompt: 'p',
        answer_key: { mode: 'pattern', accepted: ['**'], case_sensitive: false },
      },
    ];
    expect(() => toNewQuestions(bad.map((q) => QuestionInput.parse(q)))).toThrow(
      expect.objectContaining({
        statusCode: 400,
        fields: {
          'questions.0.answer_key': ['The correct option is not one of the options.'],
          'questions.1.answer_key': ['A correct option is listed twice.'],
          'questions.2.answer_key': ['The order must list every option exactly once.'],
          'questions.3.answer_key': ['Two options have the same id.'],
          'questions.4.answer_key': ['A pattern must contain more than "*".'],
        },
      }),
    );
  });
});

describe('shuffled options', () => {
  const q = one({
    kind: 'ordering',
    prompt: 'p',
    shuffle_options: true,
    options: 'abcdefgh'.split('').map((id) => ({ id, text: id })),
    answer_key: { order: 'abcdefgh'.split('') },
  });

  it('are the same for one student every time, differ between students, and lose no option', () => {
    const ids = (userId: number) =>
      optionsFor(q, userId)
        .map((o) => o.id)
        .join('');
    expect(ids(7)).toBe(ids(7));
    const orders = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(ids));
    expect(orders.size).toBeGreaterThan(4);
    for (const order of orders) expect(order.split('').sort().join('')).toBe('abcdefgh');
  });

  it('stay in the editor’s order when shuffling is off', () => {
    const plain = { ...q, shuffleOptions: false };
    expect(
      optionsFor(plain, 7)
        .map((o) => o.id)
        .join(''),
    ).toBe('abcdefgh');
  });
});
