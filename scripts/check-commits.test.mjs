import { describe, expect, it } from 'vitest';
import { subjectProblem } from './check-commits.mjs';

describe('commit subjects', () => {
  it('takes short subjects in the imperative, with or without a scope', () => {
    for (const subject of [
      'Add pytest test kind',
      'forum: Fix the unread count after a delete',
      'Seed the demo course once',
      'Bring back the leaderboard',
      'Focus the first field',
      'Pass the grader its limits',
      'x'.repeat(72),
    ]) {
      expect(subjectProblem(subject), subject).toBeNull();
    }
  });

  it('refuses long subjects and other forms of the verb', () => {
    expect(subjectProblem('Add ' + 'x'.repeat(69))).toMatch(/^73 characters/);
    for (const [subject, verb] of [
      ['Added pytest test kind', 'added'],
      ['Adds pytest test kind', 'adds'],
      ['Adding pytest test kind', 'adding'],
      ['grader: Fixes the time limit', 'fixes'],
    ]) {
      expect(subjectProblem(subject)).toMatch(new RegExp(`^"${verb}" is not the imperative`));
    }
  });
});
