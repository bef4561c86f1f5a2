// The grader writes why a test file cannot run as a code (apps/grader/src/pytest-results.ts); the API
// sends it to the web as PytestCheckReason (packages/contracts). The grader does not depend on the
// contracts, so the two lists are written twice: this keeps them one list.
import { PytestCheckReason } from '@kadai/contracts';
import { BROKEN_CODES } from '@kadai/grader/evaluate';
import { describe, expect, it } from 'vitest';

describe('the reasons a pytest test file cannot run', () => {
  it('are the same codes in the grader and in the contract, with the API’s not_checked', () => {
    const contract = PytestCheckReason.shape.code.options;
    expect([...contract].sort()).toEqual([...BROKEN_CODES, 'not_checked'].sort());
  });
});
