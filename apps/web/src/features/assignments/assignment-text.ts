import type { TFunction } from 'i18next';

/**
 * "1 point · 1 test case", "10 points · 3 test cases", "10 点・テストケース 3 件": each number takes its
 * own plural, so neither borrows the other's (a single plural over the test count once read "1 points ·
 * 1 test"). The count is of test cases: a pytest file's many tests are one test case here.
 */
export function pointsAndTests(t: TFunction, points: number, tests: number): string {
  return t('assignments.pointsAndTests', {
    points: t('assignments.pointCount', { count: points }),
    tests: t('assignments.testCasesCount', { count: tests }),
  });
}
