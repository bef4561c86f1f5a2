import {
  addDays,
  dayKeyIn,
  daysBetween,
  minutesIntoDay,
  startOfDay,
  utcDayKey,
  type DayKey,
} from './calendar-dates.ts';

/**
 * Where entries go in the views: the days an entry touches, bars across a week's days, and blocks of
 * the week's time grid, all in the reader's time zone (calendar-dates.ts).
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/* ─── Placing entries ───────────────────────────────────────────────────────────────────────── */

export interface Placeable {
  starts_at: string;
  ends_at: string;
  all_day: boolean;
}

/**
 * The days an entry touches, first and last. A timed entry ending exactly at midnight does not touch
 * the day that midnight begins (unless it is a point in time at midnight).
 */
export function entryDays<T extends Placeable>(entry: T, timeZone: string): { first: DayKey; last: DayKey } {
  if (entry.all_day) {
    return { first: utcDayKey(new Date(entry.starts_at)), last: utcDayKey(new Date(entry.ends_at)) };
  }
  const start = new Date(entry.starts_at);
  const end = new Date(entry.ends_at);
  const first = dayKeyIn(start, timeZone);
  let last = dayKeyIn(end, timeZone);
  if (end > start && last !== first && minutesIntoDay(end, timeZone) === 0) {
    const midnight = startOfDay(last, timeZone);
    if (midnight.getTime() === end.getTime()) last = addDays(last, -1);
  }
  return { first, last };
}

/** Entries by the days of `days` they touch, each day's in the order given. */
export function entriesByDay<T extends Placeable>(
  entries: readonly T[],
  days: readonly DayKey[],
  timeZone: string,
): Map<DayKey, T[]> {
  const byDay = new Map<DayKey, T[]>(days.map((day) => [day, []]));
  if (days.length === 0) return byDay;
  const firstShown = days[0]!;
  const lastShown = days.at(-1)!;
  for (const entry of entries) {
    const span = entryDays(entry, timeZone);
    const from = daysBetween(firstShown, span.first) > 0 ? span.first : firstShown;
    const to = daysBetween(span.last, lastShown) > 0 ? span.last : lastShown;
    for (let day = from; daysBetween(day, to) >= 0; day = addDays(day, 1)) byDay.get(day)?.push(entry);
  }
  return byDay;
}

/** Whether the entry touches more than one day in the zone (the month view draws it as a bar). */
export function isMultiDay(entry: Placeable, timeZone: string): boolean {
  const { first, last } = entryDays(entry, timeZone);
  return first !== last;
}

export interface Bar<T> {
  entry: T;
  /** Indexes of the first and last day of the week it covers. */
  start: number;
  end: number;
  /** The row it takes among the week's bars (0 first); bars of one week never share a row and a day. */
  lane: number;
  /** It began before this week / goes on after it. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/** The entries as bars across one week's days, each in the first row free for all its days. */
export function weekBars<T extends Placeable>(
  entries: readonly T[],
  week: readonly DayKey[],
  timeZone: string,
): Bar<T>[] {
  const first = week[0]!;
  const lastIndex = week.length - 1;
  const bars: Bar<T>[] = [];
  for (const entry of entries) {
    const span = entryDays(entry, timeZone);
    const from = daysBetween(first, span.first);
    const to = daysBetween(first, span.last);
    if (to < 0 || from > lastIndex) continue;
    bars.push({
      entry,
      start: Math.max(0, from),
      end: Math.min(lastIndex, to),
      lane: 0,
      continuesBefore: from < 0,
      continuesAfter: to > lastIndex,
    });
  }
  bars.sort((a, b) => a.start - b.start || b.end - a.end);
  const laneEnds: number[] = [];
  for (const bar of bars) {
    let lane = 0;
    while (laneEnds[lane] !== undefined && laneEnds[lane]! >= bar.start) lane++;
    bar.lane = lane;
    laneEnds[lane] = bar.end;
  }
  return bars;
}

/** Whether the week view puts the entry in the band above the hours: all-day, or a day or longer. */
export function isBandEntry(entry: Placeable): boolean {
  return entry.all_day || Date.parse(entry.ends_at) - Date.parse(entry.starts_at) >= DAY_MS;
}

export interface TimedBlock<T> {
  entry: T;
  /** Minutes from the day's midnight. */
  top: number;
  /** Minutes; points in time get a small height of their own. */
  height: number;
  /** Overlapping blocks share the column: this one's index and how many share it. */
  lane: number;
  lanes: number;
}

const DAY_MINUTES = 24 * 60;
export const POINT_MINUTES = 30;

/** The timed entries of one day as blocks of the time grid, overlapping ones side by side. */
export function layoutDay<T extends Placeable>(
  entries: readonly T[],
  day: DayKey,
  timeZone: string,
): TimedBlock<T>[] {
  const dayStart = startOfDay(day, timeZone).getTime();
  const dayEnd = startOfDay(addDays(day, 1), timeZone).getTime();
  const length = (dayEnd - dayStart) / MINUTE_MS;
  const blocks = entries
    .map((entry) => {
      const start = Math.max(Date.parse(entry.starts_at), dayStart);
      const end = Math.min(Date.parse(entry.ends_at), dayEnd);
      // Minutes on the wall clock: a 23- or 25-hour day is drawn on the 24-hour grid.
      const top = Math.min(
        ((start - dayStart) / MINUTE_MS / length) * DAY_MINUTES,
        DAY_MINUTES - POINT_MINUTES,
      );
      const height = Math.max(((end - start) / MINUTE_MS / length) * DAY_MINUTES, POINT_MINUTES);
      return { entry, top, height, lane: 0, lanes: 1 };
    })
    .sort((a, b) => a.top - b.top || b.height - a.height);

  // Clusters of blocks that overlap one another share the width; each takes the first free lane.
  let cluster: typeof blocks = [];
  let clusterEnd = -1;
  const closeCluster = () => {
    const lanes = Math.max(1, ...cluster.map((b) => b.lane + 1));
    for (const block of cluster) block.lanes = lanes;
    cluster = [];
  };
  for (const block of blocks) {
    if (block.top >= clusterEnd) {
      closeCluster();
      clusterEnd = -1;
    }
    const laneEnds: number[] = [];
    for (const other of cluster)
      laneEnds[other.lane] = Math.max(laneEnds[other.lane] ?? 0, other.top + other.height);
    let lane = 0;
    while (laneEnds[lane] !== undefined && laneEnds[lane]! > block.top) lane++;
    block.lane = lane;
    cluster.push(block);
    clusterEnd = Math.max(clusterEnd, block.top + block.height);
  }
  closeCluster();
  return blocks;
}
