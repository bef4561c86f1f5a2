import { defaultWindowIn } from '../courses/course-time.ts';

/** Dates of an assignment in one course, as the list and the detail page read them. */
export interface AssignmentDates {
  opens_at: string;
  due_at: string;
  late_until: string | null;
}

/** Upcoming before it opens, open until due, late until the cut-off, closed after. */
export type Availability = 'upcoming' | 'open' | 'late' | 'closed';

export function availabilityOf(dates: AssignmentDates, now: Date = new Date()): Availability {
  const time = now.getTime();
  if (time < Date.parse(dates.opens_at)) return 'upcoming';
  if (time <= Date.parse(dates.due_at)) return 'open';
  if (dates.late_until !== null && time <= Date.parse(dates.late_until)) return 'late';
  return 'closed';
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as the value of an `<input type="datetime-local">` in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The value of a `datetime-local` input (the browser's time zone) as an ISO instant; null if empty. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The window a new assignment or quiz starts with, as `datetime-local` values (the browser's zone): open
 * from now until 23:59 a week from today, today and 23:59 in the course's zone (`defaultWindowIn`).
 */
export function defaultWindow(courseZone: string, now: Date = new Date()): { opens: string; closes: string } {
  const { opens, closes } = defaultWindowIn(courseZone, now);
  return { opens: toLocalInput(opens.toISOString()), closes: toLocalInput(closes.toISOString()) };
}

/** The browser's time zone name, shown next to date inputs ("Asia/Tokyo"). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
