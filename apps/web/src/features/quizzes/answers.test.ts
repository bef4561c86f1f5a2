import { beforeEach, describe, expect, it } from 'vitest';
import {
  answeredCount,
  draftKey,
  isAnswered,
  moveItem,
  orderOf,
  parseNumber,
  restoreDraft,
  saveDraft,
  toSubmitRequest,
  unansweredQuestions,
  type AskedQuestion,
} from './answers.ts';
import { dueWarning, formatRemaining } from './timer.ts';

const options = (...ids: string[]) => ids.map((id) => ({ id, text: id.toUpperCase() }));
const SINGLE: AskedQuestion = { id: 1, kind: 'single', options: options('a', 'b', 'c') };
const MULTIPLE: AskedQuestion = { id: 2, kind: 'multiple', options: options('a', 'b', 'c') };
const TRUE_FALSE: AskedQuestion = { id: 3, kind: 'true_false', options: [] };
const SHORT: AskedQuestion = { id: 4, kind: 'short_text', options: [] };
const NUMERIC: AskedQuestion = { id: 5, kind: 'numeric', options: [] };
const ORDERING: AskedQuestion = { id: 6, kind: 'ordering', options: options('x', 'y', 'z') };
const ALL = [SINGLE, MULTIPLE, TRUE_FALSE, SHORT, NUMERIC, ORDERING];

describe('what counts as answered, per kind', () => {
  it('single: one of its options', () => {
    expect(isAnswered(SINGLE, 'b')).toBe(true);
    expect(isAnswered(SINGLE, 'nope')).toBe(false);
    expect(isAnswered(SINGLE, null)).toBe(false);
    expect(isAnswered(SINGLE, undefined)).toBe(false);
    expect(isAnswered(SINGLE, ['a'])).toBe(false);
  });

  it('multiple: at least one box ticked, all of them its options', () => {
    expect(isAnswered(MULTIPLE, ['a', 'c'])).toBe(true);
    expect(isAnswered(MULTIPLE, [])).toBe(false);
    expect(isAnswered(MULTIPLE, ['a', 'q'])).toBe(false);
  });

  it('true/false: either boolean, false included', () => {
    expect(isAnswered(TRUE_FALSE, false)).toBe(true);
    expect(isAnswered(TRUE_FALSE, true)).toBe(true);
    expect(isAnswered(TRUE_FALSE, 'true')).toBe(false);
  });

  it('short text: something other than spaces', () => {
    expect(isAnswered(SHORT, 'for')).toBe(true);
    expect(isAnswered(SHORT, '   ')).toBe(false);
    expect(isAnswered(SHORT, '')).toBe(false);
  });

  it('numeric: a finite number, zero included', () => {
    expect(isAnswered(NUMERIC, 0)).toBe(true);
    expect(isAnswered(NUMERIC, -2.5)).toBe(true);
    expect(isAnswered(NUMERIC, '3')).toBe(false);
    expect(isAnswered(NUMERIC, null)).toBe(false);
  });

  it('ordering: only an order the student set, with every item once', () => {
    expect(isAnswered(ORDERING, undefined)).toBe(false);
    expect(isAnswered(ORDERING, ['z', 'x', 'y'])).toBe(true);
    expect(isAnswered(ORDERING, ['z', 'x'])).toBe(false);
    expect(isAnswered(ORDERING, ['z', 'z', 'y'])).toBe(false);
  });

  it('lists the unanswered questions in their order and counts the rest', () => {
    const answers = { 1: 'a', 3: false, 4: ' ', 5: 7, 6: null };
    expect(unansweredQuestions(ALL, answers)).toEqual([2, 4, 6]);
    expect(answeredCount(ALL, answers)).toBe(3);
  });
});

describe('ordering moves', () => {
  it('moves an item one place and leaves the ends alone', () => {
    expect(moveItem(['x', 'y', 'z'], 0, 1)).toEqual(['y', 'x', 'z']);
    expect(moveItem(['x', 'y', 'z'], 2, -1)).toEqual(['x', 'z', 'y']);
    expect(moveItem(['x', 'y', 'z'], 0, -1)).toEqual(['x', 'y', 'z']);
    expect(moveItem(['x', 'y', 'z'], 2, 1)).toEqual(['x', 'y', 'z']);
  });

  it('shows the served order until the student sets one', () => {
    expect(orderOf(ORDERING, undefined)).toEqual(['x', 'y', 'z']);
    expect(orderOf(ORDERING, ['y', 'z', 'x'])).toEqual(['y', 'z', 'x']);
    expect(orderOf(ORDERING, ['y'])).toEqual(['x', 'y', 'z']);
  });
});

describe('numbers as typed', () => {
  it('reads plain, signed, decimal and full-width numbers', () => {
    expect(parseNumber('42')).toBe(42);
    expect(parseNumber(' -2.5 ')).toBe(-2.5);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('１２．５')).toBe(12.5);
    expect(parseNumber('−3')).toBe(-3);
    expect(parseNumber('1e3')).toBe(1000);
  });

  it('refuses what is not one number', () => {
    for (const text of ['', ' ', 'abc', '1,500', '1.2.3', '--1', 'Infinity', '0x10']) {
      expect(parseNumber(text), text).toBeNull();
    }
  });
});

describe('the request', () => {
  it('sends every question, unanswered ones as null, text trimmed', () => {
    expect(toSubmitRequest(9, [SINGLE, SHORT, MULTIPLE], { 1: 'c', 4: '  for ', 2: [] })).toEqual({
      quiz_course: 9,
      answers: [
        { question: 1, answer: 'c' },
        { question: 4, answer: 'for' },
        { question: 2, answer: null },
      ],
    });
  });
});

describe('the draft in sessionStorage', () => {
  beforeEach(() => sessionStorage.clear());

  it('is kept per person and quiz course and comes back after a reload', () => {
    const key = draftKey(4, 12);
    expect(key).not.toBe(draftKey(5, 12));
    expect(key).not.toBe(draftKey(4, 13));
    const answers = { 1: 'b', 2: ['a'], 3: false, 4: 'while', 5: 3.5, 6: ['z', 'y', 'x'] };
    saveDraft(key, answers);
    expect(restoreDraft(key, ALL)).toEqual(answers);
  });

  it('drops what no longer fits: removed questions, unknown options, wrong shapes', () => {
    const key = draftKey(4, 12);
    sessionStorage.setItem(
      key,
      JSON.stringify({ 1: 'gone', 2: ['a', 'q'], 3: 'yes', 4: 42, 5: 'x', 6: ['x', 'y'], 99: 'a' }),
    );
    expect(restoreDraft(key, ALL)).toEqual({});
  });

  it('starts empty when storage holds something that is not a draft', () => {
    const key = draftKey(4, 12);
    sessionStorage.setItem(key, 'not json');
    expect(restoreDraft(key, ALL)).toEqual({});
    sessionStorage.setItem(key, '[1,2]');
    expect(restoreDraft(key, ALL)).toEqual({});
    expect(restoreDraft(draftKey(4, 99), ALL)).toEqual({});
  });
});

describe('the countdown', () => {
  it('shows minutes and seconds, and hours when there are some', () => {
    expect(formatRemaining(0)).toBe('00:00');
    expect(formatRemaining(59_001)).toBe('01:00');
    expect(formatRemaining(299_000)).toBe('04:59');
    expect(formatRemaining(3_909_000)).toBe('1:05:09');
  });

  it('warns once at five minutes and once at one minute', () => {
    expect(dueWarning(10 * 60_000, null)).toBeNull();
    expect(dueWarning(5 * 60_000, null)).toBe(5 * 60_000);
    expect(dueWarning(4 * 60_000, 5 * 60_000)).toBeNull();
    expect(dueWarning(60_000, 5 * 60_000)).toBe(60_000);
    expect(dueWarning(30_000, 60_000)).toBeNull();
    // Starting with little time left: the smaller warning straight away; none at zero.
    expect(dueWarning(30_000, null)).toBe(60_000);
    expect(dueWarning(0, null)).toBeNull();
  });
});
