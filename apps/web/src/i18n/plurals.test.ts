import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './index.ts';

/*
 * Strings with two numbers pluralize on `count` only, so the other number takes its plural from a nested
 * key: `$t(quiz.question.points, {"count": {{points}} })`. Before, "1 question, 1 points".
 */

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe('strings with two counted numbers', () => {
  it('the test-case summary gives tests and points each their own plural in English', async () => {
    await i18n.changeLanguage('en-US');
    const summary = (count: number, points: number) => i18n.t('testCases.summary', { count, points });
    expect(summary(1, 1)).toBe('1 test case, 1 point in all');
    expect(summary(1, 5)).toBe('1 test case, 5 points in all');
    expect(summary(3, 1)).toBe('3 test cases, 1 point in all');
    expect(summary(0, 0)).toBe('0 test cases, 0 points in all');
  });

  it('so does a quiz’s size', async () => {
    await i18n.changeLanguage('en-US');
    const size = (count: number, points: number) =>
      i18n.t('quiz.facts.questionsAndPoints', { count, points });
    expect(size(1, 1)).toBe('1 question, 1 point');
    expect(size(1, 10)).toBe('1 question, 10 points');
    expect(size(4, 1)).toBe('4 questions, 1 point');
    expect(size(2, 20)).toBe('2 questions, 20 points');
  });

  it('reads as before in Japanese, which has no plural', async () => {
    await i18n.changeLanguage('ja');
    expect(i18n.t('testCases.summary', { count: 1, points: 1 })).toBe('テストケース 1 件、合計 1 点');
    expect(i18n.t('quiz.facts.questionsAndPoints', { count: 3, points: 1 })).toBe('3 問・1 点');
  });
});
