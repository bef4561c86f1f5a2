import { describe, expect, it } from 'vitest';
import { PYTEST_TEST, evaluation, item, precheckTest } from './submission-fixtures.ts';
import {
  OUTCOME_COLOR,
  firstFailingItem,
  firstFailingResult,
  isPytestResult,
  outcomeOf,
} from './test-results.ts';

describe('test results', () => {
  it('says all, some or none passed, in the success, warning and danger colours', () => {
    expect(outcomeOf(5, 5)).toBe('all');
    expect(outcomeOf(3, 5)).toBe('some');
    expect(outcomeOf(0, 5)).toBe('none');
    expect(outcomeOf(0, 0)).toBe('none');
    expect(OUTCOME_COLOR).toEqual({ all: 'green', some: 'orange', none: 'red' });
  });

  it('tells a pytest result by its items or a collection error', () => {
    expect(isPytestResult(PYTEST_TEST)).toBe(true);
    expect(isPytestResult(precheckTest(1, 'Broken', 'Wrong', { reason: 'collection_error' }))).toBe(true);
    expect(isPytestResult(precheckTest(1, 'Small numbers', 'Wrong'))).toBe(false);
  });

  it('opens the first failing item that has a message, never a hidden one', () => {
    expect(firstFailingItem(PYTEST_TEST.items)).toBe(1);
    expect(firstFailingItem([item('a', 'skipped'), item('b', 'error'), item('c', 'failed')])).toBe(1);
    const hidden = evaluation(PYTEST_TEST, 'hidden');
    expect(hidden.view === 'hidden' && firstFailingItem(hidden.items)).toBe(-1);
  });

  it('opens the first Wrong test the reader may see', () => {
    const small = precheckTest(1, 'Small', 'Correct');
    const hiddenWrong = evaluation(precheckTest(2, 'Large', 'Wrong'), 'hidden');
    const visibleWrong = evaluation(precheckTest(3, 'Lists', 'Wrong'));
    expect(firstFailingResult([small, PYTEST_TEST])).toBe(PYTEST_TEST);
    expect(firstFailingResult([hiddenWrong, visibleWrong])).toBe(visibleWrong);
  });
});
