import type { EvaluationStatus, ItemOutcome } from '@kadai/contracts';

/** What counting needs of one test case's result (an evaluation, hidden or full, or a precheck's). */
export interface CountedResult {
  status: EvaluationStatus;
  /** A pytest test case's collected tests; empty for io and script test cases. */
  items: readonly { outcome: ItemOutcome }[];
}

export type TestCount = { passed: number; count: number };

/**
 * How many tests passed, of how many: the one count behind every "22 of 55 tests passed" (a
 * submission's results, the latest result, a precheck, a reference run, one pytest file's line).
 * Each collected test of a pytest test case counts on its own, passed when its outcome is `passed`
 * (a file of 20 tests with 3 failing is 17 of 20, not 0 of 1); any other test case — io, script, or a
 * pytest file that could not collect its tests — counts once, passed when Correct.
 */
export function countTests(results: readonly CountedResult[]): TestCount {
  let passed = 0;
  let count = 0;
  for (const result of results) {
    if (result.items.length > 0) {
      passed += result.items.filter((item) => item.outcome === 'passed').length;
      count += result.items.length;
    } else {
      passed += result.status === 'Correct' ? 1 : 0;
      count += 1;
    }
  }
  return { passed, count };
}
