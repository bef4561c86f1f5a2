import { describe, expect, it } from 'vitest';
import type { ReviewQueueRow, RubricItem } from '@kadai/contracts';
import { clickLine, overlaps, selectionLines } from './line-range.ts';
import { neighbour, nextUngraded } from './queue-order.ts';
import { groupRuns, moveItem, rubricSaveBody, usesAffected, type RubricDraft } from './rubric-form.ts';
import { maximumScore, reviewTotal, tickedPoints } from './review-score.ts';

const item = (id: number, points: number, uses = 0): RubricItem => ({
  id,
  group: '',
  title: `Item ${id}`,
  description: '',
  points,
  position: id,
  uses,
});

describe('the score of a grading', () => {
  const weights = { autograde_weight: 1, rubric_weight: 1 };
  it('adds the weighted autograde and rubric points', () => {
    expect(
      reviewTotal(
        { autograde_weight: 0.5, rubric_weight: 2 },
        {
          autograde: 8,
          rubricPoints: 3,
          adjustment: -1,
          maxScore: 20,
        },
      ),
    ).toBe(8);
  });
  it('stays within 0 and the maximum', () => {
    expect(reviewTotal(weights, { autograde: 2, rubricPoints: -5, adjustment: 0, maxScore: 10 })).toBe(0);
    expect(reviewTotal(weights, { autograde: 9, rubricPoints: 5, adjustment: 0, maxScore: 10 })).toBe(10);
  });
  it('counts no autograde as 0, and sums ticked items in hundredths', () => {
    expect(reviewTotal(weights, { autograde: null, rubricPoints: 2, adjustment: 0.5, maxScore: 10 })).toBe(
      2.5,
    );
    expect(tickedPoints([item(1, 0.1), item(2, 0.2), item(3, 5)], new Set([1, 2]))).toBe(0.3);
  });
  it('gives the maximum of the settings', () => {
    expect(maximumScore({ autograde_weight: 0.5, rubric_weight: 1, rubric_max: 5 }, 10)).toBe(10);
  });
});

describe('choosing lines', () => {
  it('takes one line on a click and extends from the anchor with shift', () => {
    const first = clickLine(null, 5, false);
    expect(first.range).toEqual({ start: 5, end: 5 });
    expect(clickLine(first, 3, true).range).toEqual({ start: 3, end: 5 });
    expect(clickLine(clickLine(first, 3, true), 8, true).range).toEqual({ start: 5, end: 8 });
    expect(clickLine(first, 8, false).range).toEqual({ start: 8, end: 8 });
  });
  it('takes the lines a selection covers, not the next line of a whole-line selection', () => {
    expect(selectionLines({ line: 2, column: 4 }, { line: 2, column: 4 })).toBeNull();
    expect(selectionLines({ line: 2, column: 4 }, { line: 4, column: 1 })).toEqual({ start: 2, end: 4 });
    expect(selectionLines({ line: 2, column: 0 }, { line: 4, column: 0 })).toEqual({ start: 2, end: 3 });
    expect(overlaps({ start: 1, end: 3 }, { start: 3, end: 9 })).toBe(true);
    expect(overlaps({ start: 1, end: 2 }, { start: 3, end: 9 })).toBe(false);
  });
});

describe('the queue order', () => {
  const row = (id: number | null, status: ReviewQueueRow['status']): ReviewQueueRow => ({
    user: { id: id ?? 99, email: 'a@example.jp', first_name: '', last_name: '' },
    submission_id: id,
    submitted_at: null,
    autograde_score: null,
    status,
    grader: null,
    total: null,
    released_at: null,
    open_regrade_requests: 0,
  });
  const rows = [row(10, 'graded'), row(null, 'none'), row(11, 'none'), row(12, 'graded'), row(13, 'draft')];
  it('steps over students with nothing handed in', () => {
    expect(neighbour(rows, 10, 1)).toBe(11);
    expect(neighbour(rows, 11, -1)).toBe(10);
    expect(neighbour(rows, 13, 1)).toBeNull();
  });
  it('finds the next ungraded, wrapping to the top', () => {
    expect(nextUngraded(rows, 11)).toBe(13);
    expect(nextUngraded(rows, 13)).toBe(11);
    expect(nextUngraded(rows, null)).toBe(11);
    expect(nextUngraded([row(10, 'graded')], 10)).toBeNull();
  });
});

describe('the rubric draft', () => {
  const draft = (items: RubricDraft['items']): RubricDraft => ({
    autograde_weight: 1,
    rubric_weight: 1,
    rubric_max: 0,
    items,
  });
  const saved = [item(1, 2, 4), item(2, -1, 3), item(3, 1, 0)];
  const kept = (id: number, points: number) => ({
    key: `k${id}`,
    id,
    group: '',
    title: 't',
    description: '',
    points,
  });
  it('counts the uses of items whose points change or that go', () => {
    expect(usesAffected(saved, draft([kept(1, 2), kept(2, -1), kept(3, 5)]))).toBe(0);
    expect(usesAffected(saved, draft([kept(1, 3), kept(3, 1)]))).toBe(7);
  });
  it('writes the save body in the list order, new items without an id', () => {
    const body = rubricSaveBody(
      draft([
        kept(2, -1),
        { key: 'n', id: null, group: ' Style ', title: ' New ', description: '', points: 1 },
      ]),
    );
    expect(body.items).toEqual([
      { id: 2, group: '', title: 't', description: '', points: -1 },
      { group: 'Style', title: 'New', description: '', points: 1 },
    ]);
  });
  it('moves items and groups runs', () => {
    expect(moveItem([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(groupRuns([{ group: 'a' }, { group: 'a' }, { group: 'b' }]).map((r) => r.items.length)).toEqual([
      2, 1,
    ]);
  });
});
