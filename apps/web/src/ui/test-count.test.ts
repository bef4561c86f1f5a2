import { describe, expect, it } from 'vitest';
import { countTests, type CountedResult } from './test-count.ts';

const io = (status: CountedResult['status']): CountedResult => ({ status, items: [] });
const pytest = (status: CountedResult['status'], outcomes: CountedResult['items'][number]['outcome'][]) => ({
  status,
  items: outcomes.map((outcome) => ({ outcome })),
});

describe('counting tests', () => {
  it('counts each collected test of a pytest file, and an io or script test case once', () => {
    // A pytest file of 3 tests (2 passed) and a Correct io test: 3 of 4, not 1 of 2 test cases.
    expect(countTests([pytest('Wrong', ['passed', 'failed', 'passed']), io('Correct')])).toEqual({
      passed: 3,
      count: 4,
    });
    expect(countTests([io('Correct'), io('Wrong')])).toEqual({ passed: 1, count: 2 });
  });

  it('passes only the items that passed, whatever the file’s verdict', () => {
    const outcomes = ['passed', 'failed', 'error', 'skipped', 'time_limit'] as const;
    expect(countTests([pytest('Wrong', [...outcomes])])).toEqual({ passed: 1, count: 5 });
    // An editor may have set the file Correct by hand: its tests still say which passed.
    expect(countTests([pytest('Correct', ['passed', 'failed'])])).toEqual({ passed: 1, count: 2 });
  });

  it('counts a pytest file that could not collect its tests as one failed test', () => {
    expect(countTests([pytest('Wrong', [])])).toEqual({ passed: 0, count: 1 });
  });

  it('counts nothing in no results', () => {
    expect(countTests([])).toEqual({ passed: 0, count: 0 });
  });
});
