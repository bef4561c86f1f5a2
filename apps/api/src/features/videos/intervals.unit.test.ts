import { describe, expect, it } from 'vitest';
import { applyReport, mergeIntervals, totalSeconds, type Interval } from './intervals.ts';

const open = { duration: 600, budgetSeconds: 10_000, maxStored: 500 };

describe('watch intervals', () => {
  it('merges overlapping and touching intervals, whatever their order', () => {
    expect(
      mergeIntervals([
        [50, 60],
        [0, 10],
        [5, 20],
        [20, 25],
        [55, 58],
      ]),
    ).toEqual([
      [0, 25],
      [50, 60],
    ]);
    expect(mergeIntervals([])).toEqual([]);
  });

  it('counts a replay once', () => {
    const first = applyReport([], [[0, 30]], open);
    const replay = applyReport(first.intervals, [[10, 30]], open);
    expect(replay).toMatchObject({ watchedSeconds: 30, addedSeconds: 0, intervals: [[0, 30]] });
  });

  it('does not count what a seek skipped', () => {
    // Watched 0–20, sought to 590, watched to the end.
    const outcome = applyReport(
      [],
      [
        [0, 20],
        [590, 600],
      ],
      open,
    );
    expect(outcome.intervals).toEqual([
      [0, 20],
      [590, 600],
    ]);
    expect(outcome.watchedSeconds).toBe(30);
  });

  it('fills a gap later without counting the overlap twice', () => {
    const before: Interval[] = [
      [0, 20],
      [40, 60],
    ];
    const outcome = applyReport(before, [[10, 50]], open);
    expect(outcome).toMatchObject({ intervals: [[0, 60]], watchedSeconds: 60, addedSeconds: 20 });
  });

  it('clips intervals to the video and ignores empty or reversed ones', () => {
    const outcome = applyReport(
      [],
      [
        [-5, 10],
        [590, 700],
        [30, 30],
        [50, 40],
      ],
      open,
    );
    expect(outcome.intervals).toEqual([
      [0, 10],
      [590, 600],
    ]);
  });

  it('adds no more than the budget allows, in the order reported', () => {
    const outcome = applyReport(
      [[0, 10]],
      [
        [0, 30],
        [100, 200],
      ],
      { ...open, budgetSeconds: 25 },
    );
    // 20 new seconds from the first interval, 5 from the second; the rest is refused.
    expect(outcome.intervals).toEqual([
      [0, 30],
      [100, 105],
    ]);
    expect(outcome).toMatchObject({ addedSeconds: 25, refusedSeconds: 95, watchedSeconds: 35 });
  });

  it('reporting the whole video at once counts only the budget', () => {
    const outcome = applyReport([], [[0, 600]], { ...open, budgetSeconds: 30 });
    expect(outcome.watchedSeconds).toBe(30);
  });

  it('keeps at most maxStored intervals', () => {
    const scattered: Interval[] = Array.from({ length: 10 }, (_, i) => [i * 10, i * 10 + 1]);
    const outcome = applyReport([], scattered, { ...open, maxStored: 4 });
    expect(outcome.intervals).toHaveLength(4);
    expect(outcome.refusedSeconds).toBe(6);
    // Filling a gap between stored intervals still counts: it joins them.
    const joined = applyReport(outcome.intervals, [[1, 10]], { ...open, maxStored: 4 });
    expect(joined.intervals[0]).toEqual([0, 11]);
  });

  it('rounds to a tenth of a second', () => {
    expect(totalSeconds([[0.04, 10.06]])).toBe(10);
    expect(applyReport([], [[1.234, 2.345]], open).intervals).toEqual([[1.2, 2.3]]);
  });
});
