/*
 * Watch intervals (docs/videos.md, "Honest statistics"). The player reports what it actually played as
 * [start, end] seconds of the video; the server keeps their union, so a seek skips the gap, a replay adds
 * nothing, and progress is distinct seconds watched over the duration.
 */

export type Interval = [number, number];

/** Positions are kept to a tenth of a second (players report every 250 ms or so). */
const tenth = (x: number) => Math.round(x * 10) / 10;

/** Sorted, overlapping and touching intervals joined. */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = [...list].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Interval[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export function totalSeconds(list: readonly Interval[]): number {
  return tenth(list.reduce((sum, [start, end]) => sum + (end - start), 0));
}

/** The parts of [start, end] that `merged` does not cover, in order. */
function uncovered(merged: readonly Interval[], start: number, end: number): Interval[] {
  const gaps: Interval[] = [];
  let from = start;
  for (const [a, b] of merged) {
    if (b <= from) continue;
    if (a >= end) break;
    if (a > from) gaps.push([from, a]);
    from = Math.max(from, b);
    if (from >= end) break;
  }
  if (from < end) gaps.push([from, end]);
  return gaps;
}

export interface ReportLimits {
  /** Length of the video: intervals are clipped to it. */
  duration: number;
  /** New distinct seconds this report may add (playback rate × time since the last report + slack). */
  budgetSeconds: number;
  /** Past this many stored intervals, new ones are not recorded. */
  maxStored: number;
}

export interface ReportOutcome {
  intervals: Interval[];
  watchedSeconds: number;
  /** Distinct seconds this report added. */
  addedSeconds: number;
  /** Seconds reported but not recorded (over the budget or the stored-interval cap). */
  refusedSeconds: number;
}

/**
 * Adds a report's intervals to the stored ones, in the order the player sent them, until the budget is
 * spent: what could not have been watched in the time since the previous report is not counted.
 */
export function applyReport(
  stored: readonly Interval[],
  reported: readonly Interval[],
  limits: ReportLimits,
): ReportOutcome {
  let merged = mergeIntervals(stored);
  let budget = Math.max(0, limits.budgetSeconds);
  let added = 0;
  let refused = 0;
  for (const [rawStart, rawEnd] of reported) {
    const start = tenth(Math.min(Math.max(rawStart, 0), limits.duration));
    const end = tenth(Math.min(Math.max(rawEnd, 0), limits.duration));
    if (end <= start) continue;
    for (const [a, b] of uncovered(merged, start, end)) {
      const take = tenth(Math.min(b - a, budget));
      refused += b - a - take;
      if (take <= 0) continue;
      const next = mergeIntervals([...merged, [a, tenth(a + take)]]);
      if (next.length > limits.maxStored) {
        refused += take;
        continue;
      }
      merged = next;
      budget -= take;
      added += take;
    }
  }
  return {
    intervals: merged,
    watchedSeconds: totalSeconds(merged),
    addedSeconds: tenth(added),
    refusedSeconds: tenth(refused),
  };
}
