import i18next from 'i18next';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseZoneContext } from './course-zone.ts';

/**
 * The one date-time format of each language, ranges included (docs/web.md, "Dates and times"): weekday,
 * date and a 24-hour time — "Wed, Apr 8, 2026, 23:59", "2026年4月8日(水) 23:59". 24-hour in English too:
 * deadlines sit at 23:59 and midnight, where "12:00 AM" leaves people guessing the day, and the
 * calendar's week grid is drawn in hours 00–23.
 */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};
const DATE: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  weekday: 'short',
};
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

export interface DateTimeOptions {
  /** Name the time zone after the time ("JST", "GMT+9"): deadlines and windows say where they are. */
  zone?: boolean;
  /** The zone to show the moment in; the browser's by default. */
  timeZone?: string;
}

// Making an Intl formatter costs far more than using one (a table of dates made one per cell): each is
// made once per language, options and zone. The browser's own zone can change while the page is open (a
// laptop that travels; tests set it): its name is read again in each task that formats a date, and at
// once when the UTC offset changed, rather than trusted for the page's life.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
let browserZone: { name: string; offset: number } | null = null;

function currentBrowserZone(): string {
  const offset = new Date().getTimezoneOffset();
  if (browserZone?.offset !== offset) {
    if (browserZone === null) {
      setTimeout(() => {
        browserZone = null;
      }, 0);
    }
    browserZone = { name: new Intl.DateTimeFormat().resolvedOptions().timeZone, offset };
  }
  return browserZone.name;
}

function cachedDateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const zoned = options.timeZone ? options : { ...options, timeZone: currentBrowserZone() };
  const key = `${language}\u0000${JSON.stringify(zoned)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, zoned);
    dateTimeFormats.set(key, format);
  }
  return format;
}

function cachedNumberFormat(language: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = options ? `${language}\u0000${JSON.stringify(options)}` : language;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    numberFormats.set(key, format);
  }
  return format;
}

const toDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);

function dateTimeFormat(language: string, base: Intl.DateTimeFormatOptions, options: DateTimeOptions) {
  return cachedDateTimeFormat(language, {
    ...base,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.zone ? { timeZoneName: 'short' } : {}),
  });
}

/** "Wed, Apr 8, 2026, 23:59", "2026年4月8日(水) 23:59"; with `zone`, "… 23:59 GMT+9", "… 23:59 JST". */
export function formatDateTime(
  value: string | Date,
  language: string,
  options: DateTimeOptions = {},
): string {
  return dateTimeFormat(language, DATE_TIME, options).format(toDate(value));
}

/** A date and time with the reader's time zone named, for deadlines ("2026年11月30日(月) 23:59 JST"). */
export function formatDateTimeWithZone(value: string | Date, language: string): string {
  return formatDateTime(value, language, { zone: true });
}

/** "GMT+09:00": the UTC offset a zone has at a moment. */
function offsetAt(date: Date, timeZone: string): string {
  const parts = cachedDateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(date);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/**
 * Whether a moment of a course must name its zone for this reader: when the course's clock shows
 * another time than the reader's then (or the course's zone is not known). Zones with other names but
 * the same offset (Asia/Tokyo, Asia/Seoul) read the same, so they need no name.
 */
export function isOtherZone(value: string | Date, courseZone: string | null | undefined): boolean {
  if (!courseZone) return true;
  const date = toDate(value);
  try {
    return offsetAt(date, courseZone) !== offsetAt(date, currentBrowserZone());
  } catch {
    return true;
  }
}

/**
 * A deadline or an item's window edge (docs/web.md, "Dates and times"): the one date-time format, in the
 * reader's zone, naming that zone when the course's differs — "Mon, Nov 30, 2026, 15:59 GMT+1" for a
 * reader in Paris of a course in Tokyo, "2026年11月30日(月) 23:59" for one in Tokyo.
 */
export function formatDeadline(
  value: string | Date,
  language: string,
  courseZone: string | null | undefined,
): string {
  return formatDateTime(value, language, { zone: isOtherZone(value, courseZone) });
}

/** The date alone, as in the date-time: "Wed, Apr 8, 2026", "2026年4月8日(水)". */
export function formatDate(value: string | Date, language: string): string {
  return dateTimeFormat(language, DATE, {}).format(toDate(value));
}

/** The time alone, as in the date-time: "09:05", "23:59". */
export function formatTime(value: string | Date, language: string, options: DateTimeOptions = {}): string {
  return dateTimeFormat(language, TIME, options).format(toDate(value));
}

/** "{from} – {to}" in English, "{from}〜{to}" in Japanese (`common.dateRange`). */
function joinRange(from: string, to: string, language: string): string {
  return i18next.t('common.dateRange', { lng: language, from, to });
}

/** The calendar day of a moment in a zone, to tell whether a range ends on the day it starts. */
function dayOf(date: Date, timeZone: string | undefined): string {
  return cachedDateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/**
 * From one moment to another in the same format as a single one (never Intl's `formatRange`, whose
 * Japanese interval patterns differ from the single date-time): "Wed, Apr 1, 2026, 10:00 – Wed, Apr 8,
 * 2026, 23:59"; on one day the date once, "Wed, Apr 1, 2026, 10:40 – 12:10". With `zone`, the zone is
 * named once, at the end.
 */
export function formatDateTimeRange(
  from: string | Date,
  to: string | Date,
  language: string,
  options: DateTimeOptions = {},
): string {
  const start = toDate(from);
  const end = toDate(to);
  const startText = formatDateTime(start, language, { timeZone: options.timeZone });
  const endText =
    dayOf(start, options.timeZone) === dayOf(end, options.timeZone)
      ? formatTime(end, language, options)
      : formatDateTime(end, language, options);
  return joinRange(startText, endText, language);
}

/** Two times of one day: "10:40 – 12:10", "10:40〜12:10". */
export function formatTimeRange(
  from: string | Date,
  to: string | Date,
  language: string,
  options: DateTimeOptions = {},
): string {
  return joinRange(
    formatTime(from, language, { timeZone: options.timeZone }),
    formatTime(to, language, options),
    language,
  );
}

/**
 * Makes a number and a date formatter of the language before the page needs one. The page's first Intl
 * formatter loads the ICU's data — about 25 ms on this box, four times that on Lighthouse's phone — in
 * whichever task makes it: else the render that draws the first date. main.tsx calls this in a task of
 * its own as the app starts.
 */
export function prepareFormatters(language: string): void {
  cachedNumberFormat(language).format(0);
  dateTimeFormat(language, DATE_TIME, { zone: true }).format(0);
}

export function formatNumber(value: number, language: string): string {
  return cachedNumberFormat(language).format(value);
}

/**
 * Dates and numbers in the reader's language, through Intl. Deadlines (`deadline`, `deadlineRange`) name
 * the zone when the course's (CourseZoneContext) differs from the reader's.
 */
export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const courseZone = useContext(CourseZoneContext);
  return {
    dateTime: (value: string | Date) => formatDateTime(value, language),
    date: (value: string | Date) => formatDate(value, language),
    time: (value: string | Date) => formatTime(value, language),
    number: (value: number) => formatNumber(value, language),
    dateTimeWithZone: (value: string | Date) => formatDateTimeWithZone(value, language),
    /** A deadline or an item's opening: the zone named when the course's differs (`<Deadline>`). */
    deadline: (value: string | Date) => formatDeadline(value, language, courseZone),
    /** An item's window, as `deadline` names its zone: once, at the end. */
    deadlineRange: (from: string | Date, to: string | Date) =>
      formatDateTimeRange(from, to, language, { zone: isOtherZone(to, courseZone) }),
    /** A window or period: the date once when it ends on the day it starts, the zone named with `zone`. */
    dateTimeRange: (from: string | Date, to: string | Date, options: { zone?: boolean } = {}) =>
      formatDateTimeRange(from, to, language, options),
    bytes: (value: number) => formatBytes(value, language),
  };
}

/** A file size in B, kB or MB (1 kB = 1024 B, as file limits are set). */
export function formatBytes(bytes: number, language: string): string {
  // Intl spells bytes out ("46 byte"); B reads the same in both languages.
  if (bytes < 1024) return `${cachedNumberFormat(language).format(bytes)} B`;
  const [unit, divisor] =
    bytes >= 1024 * 1024
      ? (['megabyte', 1024 * 1024] as const)
      : bytes >= 1024
        ? (['kilobyte', 1024] as const)
        : (['byte', 1] as const);
  return cachedNumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(
    bytes / divisor,
  );
}
