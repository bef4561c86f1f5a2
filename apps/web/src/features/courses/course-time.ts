/**
 * Wall-clock times in a course's time zone (docs/courses.md, "Time zone"), with nothing but Intl: what a
 * clock there shows at an instant, and the instant it shows a given time. Date inputs stay in the
 * browser's zone; these convert between the two.
 */

/** What a clock in some zone shows: a civil date and a time (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterIn(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    // h23, not hour12: false, which some engines write as 24 at midnight.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** A wall time with seconds, as milliseconds on a UTC clock (so two wall times subtract). */
function wallMs(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterIn(zone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** How far `zone`'s clocks are ahead of UTC at `instant`, in milliseconds. */
function offsetMs(instant: number, zone: string): number {
  return wallMs(instant, zone) - Math.floor(instant / 1000) * 1000;
}

/** What a clock in `zone` shows at `instant` (seconds dropped). */
export function wallTimeIn(instant: Date, zone: string): WallTime {
  const wall = new Date(wallMs(instant.getTime(), zone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

/**
 * The instant a clock in `zone` shows `wall`. A time the clocks skip (spring forward) counts as if they
 * had not yet jumped, so 02:30 becomes 03:30; a time they show twice (fall back) is its first showing.
 * (Temporal's "compatible" choice.)
 */
export function instantOf(wall: WallTime, zone: string): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // No zone changes its offset twice within two days, so the offsets a day either side are the candidates.
  const before = offsetMs(asUtc - DAY_MS, zone);
  const after = offsetMs(asUtc + DAY_MS, zone);
  const fits = [asUtc - before, asUtc - after].filter((t) => t + offsetMs(t, zone) === asUtc);
  return new Date(fits.length > 0 ? Math.min(...fits) : asUtc - before);
}

/** The same wall time `days` later on the calendar (months and years roll over). */
export function addCalendarDays(wall: WallTime, days: number): WallTime {
  const moved = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/**
 * The window a new assignment or quiz starts with (issue 21): open from this minute, so one saved with
 * the defaults is open at once, until 23:59 on the day a week from today — today and 23:59 in the
 * course's zone, whatever the browser's is.
 */
export function defaultWindowIn(zone: string, now: Date = new Date()): { opens: Date; closes: Date } {
  const opens = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const closesDay = addCalendarDays(wallTimeIn(now, zone), 7);
  return { opens, closes: instantOf({ ...closesDay, hour: 23, minute: 59 }, zone) };
}

/** Whether two names are one zone (an alias such as Asia/Kolkata and Asia/Calcutta counts as the same). */
export function isSameZone(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const resolve = (zone: string) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions();
    return resolve(a).timeZone === resolve(b).timeZone;
  } catch {
    return false;
  }
}

/** When 23:59 of a day in the course's zone is on the reader's clock, for the hint under date fields. */
export interface EndOfDayHere {
  /** `HH:MM` on the reader's clock. */
  time: string;
  /** The reader's date minus the course's: −1 the day before, 1 the day after, else 0. */
  dayShift: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 23:59 of the day `reference` falls on in `courseZone`, as a clock in `hereZone` (the browser's) shows
 * it; null when both are one zone (then the date fields need no hint).
 */
export function endOfDayHere(courseZone: string, reference: Date, hereZone: string): EndOfDayHere | null {
  if (isSameZone(courseZone, hereZone)) return null;
  const there = wallTimeIn(reference, courseZone);
  const here = wallTimeIn(instantOf({ ...there, hour: 23, minute: 59 }, courseZone), hereZone);
  const dayShift = Math.round(
    (Date.UTC(here.year, here.month - 1, here.day) - Date.UTC(there.year, there.month - 1, there.day)) /
      DAY_MS,
  );
  return { time: `${pad(here.hour)}:${pad(here.minute)}`, dayShift };
}
