import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { pointsAndTests } from './assignment-text.ts';

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe('the points and tests of an assignment', () => {
  it('pluralizes points and tests each on its own in English', async () => {
    await i18n.changeLanguage('en-US');
    const t = i18n.t.bind(i18n);
    expect(pointsAndTests(t, 1, 1)).toBe('1 point · 1 test case');
    expect(pointsAndTests(t, 1, 3)).toBe('1 point · 3 test cases');
    expect(pointsAndTests(t, 10, 1)).toBe('10 points · 1 test case');
    expect(pointsAndTests(t, 0, 0)).toBe('0 points · 0 test cases');
  });

  it('reads as before in Japanese', async () => {
    await i18n.changeLanguage('ja');
    expect(pointsAndTests(i18n.t.bind(i18n), 10, 3)).toBe('10 点・テストケース 3 件');
  });
});
