import type {
  Evaluation,
  EvaluationItemFull,
  EvaluationItemHidden,
  ItemOutcome,
  PrecheckTest,
} from '@kadai/contracts';

/** One test case's result: a stored evaluation (full or hidden) or a precheck's (always full). */
export type TestResult = Evaluation | PrecheckTest;
/** A result whose input, output and messages the reader may see. */
export type FullTestResult = Exclude<TestResult, { view: 'hidden' }>;
export type ResultItem = EvaluationItemFull | EvaluationItemHidden;

export function isFullResult(result: TestResult): result is FullTestResult {
  return !('view' in result) || result.view === 'full';
}

/**
 * A pytest test case's result: it has collected tests, or pytest could not collect any. The result
 * carries no kind, and the io fields (expected output, a diff) mean nothing for it.
 */
export function isPytestResult(result: Pick<TestResult, 'items' | 'reason'>): boolean {
  return result.items.length > 0 || result.reason === 'collection_error';
}

export function isFailingItem(item: Pick<ResultItem, 'outcome'>): boolean {
  return item.outcome === 'failed' || item.outcome === 'error' || item.outcome === 'time_limit';
}

/** The index of the first item that did not pass and has something to read, else -1. */
export function firstFailingItem(items: readonly ResultItem[]): number {
  return items.findIndex((item) => isFailingItem(item) && 'message' in item);
}

/** The first Wrong test whose details the reader may see: it is opened to begin with. */
export function firstFailingResult<T extends TestResult>(results: readonly T[]): T | undefined {
  return results.find((result) => result.status === 'Wrong' && isFullResult(result));
}

/**
 * How an item looks: the Mantine colour of its light badge (the theme darkens these texts to 4.5:1 in
 * both schemes) and an icon, so the outcome never rests on colour alone.
 */
export const ITEM_OUTCOME_STYLE: Record<ItemOutcome, { color: string }> = {
  passed: { color: 'green' },
  failed: { color: 'red' },
  error: { color: 'red' },
  skipped: { color: 'gray' },
  time_limit: { color: 'orange' },
};

export type Outcome = 'all' | 'some' | 'none';

/** All passed, some, or none (no test at all counts as none: nothing was shown to work). */
export function outcomeOf(passed: number, count: number): Outcome {
  if (count > 0 && passed === count) return 'all';
  return passed > 0 ? 'some' : 'none';
}

/**
 * How a graded submission scored: every point, some, or none. Null when there is no outcome to show:
 * not graded (any status but Completed), no score yet, or nothing to score (a maximum of 0).
 */
export function scoreOutcome(
  status: string,
  score: number | null | undefined,
  max: number | null | undefined,
): Outcome | null {
  if (status !== 'Completed' || score === null || score === undefined) return null;
  if (max === null || max === undefined || max <= 0) return null;
  if (score >= max) return 'all';
  return score > 0 ? 'some' : 'none';
}

/** Success, warning and danger colours of an outcome, each with its own icon in `ResultOutcome`. */
export const OUTCOME_COLOR: Record<Outcome, string> = { all: 'green', some: 'orange', none: 'red' };
