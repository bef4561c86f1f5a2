/**
 * Date math of the calendar in a named time zone (the reader's, from the browser), with nothing but
 * Intl. A day is a civil date key `YYYY-MM-DD`; instants are `Date`s. All-day entries are dates already
 * (00:00 UTC of each day, docs/calendar.md) and are read in UTC.
 */

export type DayKey = string;
export type CalendarView = 'month' | 'week' | 'list';
export const CALENDAR_VIEWS: readonly CalendarView[] = ['month', 'week', 'list'];

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

interface WeekInfo {
  firstDay: number;
}
/** Newer engines have `getWeekInfo()`, older ones a `weekInfo` getter; the type library has neither. */
interface LocaleWithWeekInfo {
  getWeekInfo?: () => WeekInfo;
  weekInfo?: WeekInfo;
}

/** The first day of the week in a locale: 0 Sunday … 6 Saturday (Sunday when the engine cannot tell). */
export function weekStartOf(language: string): number {
  try {
    const locale: Intl.Locale & LocaleWithWeekInfo = new Intl.Locale(language);
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    return info ? info.firstDay % 7 : 0;
  } catch {
    return 0;
  }
}

/* ─── Civil dates ───────────────────────────────────────────────────────────────────────────── */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

interface Civil {
  year: number;
  month: number;
  day: number;
}

export function parseDayKey(key: DayKey): Civil {
  const [year, month, day] = key.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}

const keyOfUtc = (ms: number): DayKey => {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const utcOf = (key: DayKey) => {
  const { year, month, day } = parseDayKey(key);
  return Date.UTC(year, month - 1, day);
};

export function isDayKey(value: string | null | undefined): value is DayKey {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return keyOfUtc(utcOf(value)) === value;
}

export function addDays(key: DayKey, days: number): DayKey {
  return keyOfUtc(utcOf(key) + days * DAY_MS);
}

/** Same day of another month, kept inside that month (31 January + 1 month → 28 or 29 February). */
export function addMonths(key: DayKey, months: number): DayKey {
  const { year, month, day } = parseDayKey(key);
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return keyOfUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(day, lastDay)));
}

/** 0 Sunday … 6 Saturday. */
export function dayOfWeek(key: DayKey): number {
  return new Date(utcOf(key)).getUTCDay();
}

export function daysBetween(from: DayKey, to: DayKey): number {
  return Math.round((utcOf(to) - utcOf(from)) / DAY_MS);
}

/** The date of an all-day entry's instant (00:00 UTC). */
export function utcDayKey(instant: Date): DayKey {
  return keyOfUtc(instant.getTime());
}

/* ─── Time zones ────────────────────────────────────────────────────────────────────────────── */

const partFormats = new Map<string, Intl.DateTimeFormat>();
function partsIn(instant: Date, timeZone: string) {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = partsIn(new Date(instant), timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The day an instant falls on in the zone. */
export function dayKeyIn(instant: Date, timeZone: string): DayKey {
  const p = partsIn(instant, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** Minutes since the zone's midnight of that day (0–1439). */
export function minutesIntoDay(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  return p.hour * 60 + p.minute;
}

/**
 * The instant a wall-clock time of a day has in the zone. A time skipped by a daylight-saving jump
 * gives the moment after the jump; a time that happens twice gives the first.
 */
export function zonedInstant(key: DayKey, minutes: number, timeZone: string): Date {
  const wall = utcOf(key) + minutes * MINUTE_MS;
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  if (first === second) return new Date(first);
  // Around a change the two guesses differ: take the one whose wall clock matches, else the later.
  const matches = (t: number) => t + offsetAt(t, timeZone) === wall;
  if (matches(Math.min(first, second))) return new Date(Math.min(first, second));
  if (matches(Math.max(first, second))) return new Date(Math.max(first, second));
  return new Date(Math.max(first, second));
}

/** 00:00 of the day in the zone (or the first moment of it, where midnight is skipped). */
export function startOfDay(key: DayKey, timeZone: string): Date {
  return zonedInstant(key, 0, timeZone);
}

/* ─── Views ─────────────────────────────────────────────────────────────────────────────────── */

/** The first day of the week holding `key`. */
export function startOfWeek(key: DayKey, weekStart: number): DayKey {
  return addDays(key, -((dayOfWeek(key) - weekStart + 7) % 7));
}

export function weekDays(key: DayKey, weekStart: number): DayKey[] {
  const first = startOfWeek(key, weekStart);
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

export function firstOfMonth(key: DayKey): DayKey {
  const { year, month } = parseDayKey(key);
  return `${pad(year, 4)}-${pad(month)}-01`;
}

/** The month of `key` as whole weeks (4 to 6 rows of 7 days), including days of the months around it. */
export function monthGrid(key: DayKey, weekStart: number): DayKey[][] {
  const first = firstOfMonth(key);
  const last = addDays(addMonths(first, 1), -1);
  const weeks: DayKey[][] = [];
  for (let day = startOfWeek(first, weekStart); daysBetween(day, last) >= 0; day = addDays(day, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(day, i)));
  }
  return weeks;
}

export interface Period {
  /** The days shown, first to last. */
  days: DayKey[];
  /** The instants to ask the API for: the first day's midnight to the midnight after the last. */
  from: Date;
  to: Date;
}

/** What a view shows around `key`: the month's grid, the week, or (list) the month's days. */
export function periodOf(view: CalendarView, key: DayKey, weekStart: number, timeZone: string): Period {
  let days: DayKey[];
  if (view === 'week') days = weekDays(key, weekStart);
  else if (view === 'month') days = monthGrid(key, weekStart).flat();
  else {
    const first = firstOfMonth(key);
    days = Array.from({ length: daysBetween(first, addMonths(first, 1)) }, (_, i) => addDays(first, i));
  }
  return {
    days,
    from: startOfDay(days[0]!, timeZone),
    to: startOfDay(addDays(days.at(-1)!, 1), timeZone),
  };
}

/** The day to show after pressing previous (-1) or next (+1). */
export function shiftDay(view: CalendarView, key: DayKey, direction: 1 | -1): DayKey {
  return view === 'week' ? addDays(key, 7 * direction) : addMonths(key, direction);
}

/* ─── Form values ───────────────────────────────────────────────────────────────────────────── */

/** An instant as a `datetime-local` value in the zone. */
export function toZonedInput(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  const minutes = minutesIntoDay(instant, timeZone);
  return `${dayKeyIn(instant, timeZone)}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** A `datetime-local` value read in the zone, as an ISO instant; null when it is not a valid value. */
export function fromZonedInput(value: string, timeZone: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match || !isDayKey(match[1]) || Number(match[2]) > 23 || Number(match[3]) > 59) return null;
  return zonedInstant(match[1]!, Number(match[2]) * 60 + Number(match[3]), timeZone).toISOString();
}

/** A date input's value (`YYYY-MM-DD`) as the instant an all-day event stores: 00:00 UTC. */
export function allDayInstant(key: DayKey): string {
  return new Date(utcOf(key)).toISOString();
}
