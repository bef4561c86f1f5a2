import type { TestCase } from '@kadai/contracts';
import type { TFunction } from 'i18next';

/**
 * A test case's points as the lists write them: "10 points" (10 点), "7 points (follow tests)" when they
 * follow a pytest file's tests, and "Not counted" for a draft, which counts in no total. The one place
 * the test-case list and the assignment page's test cases take it from.
 */
export function testCasePointsText(t: TFunction, test: TestCase): string {
  if (test.view === 'editor' && test.draft) return t('testCases.notCounted');
  if (test.view === 'editor' && test.kind === 'pytest' && test.points_auto) {
    return t('testCases.pointsFollow', { count: test.points });
  }
  return t('assignments.pointCount', { count: test.points });
}
