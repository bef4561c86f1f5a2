/**
 * A small iCalendar (RFC 5545) writer: just what a published feed needs. Times are written in UTC
 * (`…Z`), so no VTIMEZONE is needed; all-day events are dates (`VALUE=DATE`).
 */

export interface IcalEvent {
  uid: string;
  start: Date;
  /** Timed events: the end (omitted when it equals the start: a point in time, as RFC 5545 allows). */
  end: Date;
  /** Dates: `start` and `end` are 00:00 UTC of the first and last day (last day included). */
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
  url: string | null;
  categories: string[];
  /** Whether the time counts as busy (a lecture) or not (a deadline, a week-long quiz window). */
  busy: boolean;
}

export interface IcalCalendar {
  prodId: string;
  name: string;
  description: string;
  /** How often clients should fetch again, in minutes. */
  refreshMinutes: number;
  stamp: Date;
  events: IcalEvent[];
}

const CRLF = '\r\n';
const MAX_LINE_OCTETS = 75;
const DAY_MS = 86_400_000;

/** TEXT values: backslash, semicolon, comma escaped; any line break becomes `\n`; controls dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- RFC 5545 TEXT allows no control characters but TAB.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, '\\n')
  );
}

/**
 * Splits a content line into lines of at most 75 octets (continuations start with a space, which
 * counts), never inside a UTF-8 character: a Japanese character is 3 octets and stays whole.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_LINE_OCTETS;
  // for…of walks code points, so surrogate pairs (emoji) stay whole too.
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20260510T093000Z`. */
export function formatUtc(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  );
}

/** `PT1H`, `PT90M`: a DURATION of whole minutes. */
export function formatDuration(minutes: number): string {
  return minutes % 60 === 0 ? `PT${minutes / 60}H` : `PT${minutes}M`;
}

/** `20260510`: the UTC date. */
export function formatDate(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

function eventLines(event: IcalEvent, stamp: string): string[] {
  const lines = ['BEGIN:VEVENT', `UID:${event.uid}`, `DTSTAMP:${stamp}`];
  if (event.allDay) {
    // DTEND of a date is the day after the last one (RFC 5545 §3.6.1).
    lines.push(
      `DTSTART;VALUE=DATE:${formatDate(event.start)}`,
      `DTEND;VALUE=DATE:${formatDate(new Date(event.end.getTime() + DAY_MS))}`,
    );
  } else {
    lines.push(`DTSTART:${formatUtc(event.start)}`);
    if (event.end.getTime() > event.start.getTime()) lines.push(`DTEND:${formatUtc(event.end)}`);
  }
  lines.push(`SUMMARY:${escapeText(event.summary)}`);
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
  if (event.url) lines.push(`URL:${event.url}`);
  if (event.categories.length > 0) lines.push(`CATEGORIES:${event.categories.map(escapeText).join(',')}`);
  lines.push(`TRANSP:${event.busy ? 'OPAQUE' : 'TRANSPARENT'}`, 'END:VEVENT');
  return lines;
}

/** The whole calendar object: CRLF line ends, folded lines, a CRLF after the last line. */
export function renderCalendar(calendar: IcalCalendar): string {
  const stamp = formatUtc(calendar.stamp);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(calendar.prodId)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    `X-WR-CALDESC:${escapeText(calendar.description)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${formatDuration(calendar.refreshMinutes)}`,
    `X-PUBLISHED-TTL:${formatDuration(calendar.refreshMinutes)}`,
    ...calendar.events.flatMap((event) => eventLines(event, stamp)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
