import { z } from 'zod';
import { Id, IsoDate, str } from './common.ts';

/* The course calendar (docs/calendar.md explains the choices). */

/** The longest range one `GET Event/{course_id}/` may ask for. */
export const MAX_CALENDAR_RANGE_DAYS = 400;
/** Without `from`/`to`: this many days before now to `DEFAULT_CALENDAR_DAYS_AFTER` days after. */
export const DEFAULT_CALENDAR_DAYS_BEFORE = 31;
export const DEFAULT_CALENDAR_DAYS_AFTER = 62;
/** An event may last at most this long (a term, not a decade). */
export const MAX_EVENT_DAYS = 366;
/** Entries of one source in one answer; past it the answer says `truncated`. */
export const MAX_CALENDAR_ENTRIES = 1000;

export const EVENT_KINDS = ['lecture', 'exam', 'office_hours', 'deadline', 'other'] as const;
export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;

/** Where an entry of the calendar comes from: an editor's event, an assignment, a quiz. */
export const CALENDAR_SOURCES = ['event', 'assignment', 'quiz'] as const;
export const CalendarSource = z.enum(CALENDAR_SOURCES);
export type CalendarSource = z.infer<typeof CalendarSource>;

/**
 * The kind of an entry: an event's own kind; `assignment_due` and `assignment_late` (the late cut-off)
 * for assignments; `quiz_window` (opening to closing) for quizzes.
 */
export const CALENDAR_ENTRY_KINDS = [
  ...EVENT_KINDS,
  'assignment_due',
  'assignment_late',
  'quiz_window',
] as const;
export const CalendarEntryKind = z.enum(CALENDAR_ENTRY_KINDS);
export type CalendarEntryKind = z.infer<typeof CalendarEntryKind>;

const MAX_TITLE = 200;
const MAX_DESCRIPTION = 10_000;
const MAX_LOCATION = 200;
const DAY_MS = 86_400_000;

/** An event as stored. All-day events start and end at 00:00 UTC: the dates, last day included. */
export const CourseEvent = z
  .object({
    id: z.number().int(),
    course_id: z.number().int(),
    title: z.string(),
    /** Plain text. */
    description: z.string(),
    kind: EventKind,
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    all_day: z.boolean(),
    location: z.string(),
    created_by: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'CourseEvent' });
export type CourseEvent = z.infer<typeof CourseEvent>;

const isMidnightUtc = (iso: string) => Date.parse(iso) % DAY_MS === 0;

const eventFields = {
  title: str().trim().normalize('NFC').min(1).max(MAX_TITLE),
  description: str().max(MAX_DESCRIPTION),
  kind: EventKind,
  starts_at: IsoDate,
  ends_at: IsoDate,
  all_day: z.boolean(),
  location: str().trim().normalize('NFC').max(MAX_LOCATION),
};

interface EventTimes {
  starts_at?: string;
  ends_at?: string;
  all_day?: boolean;
}

/**
 * The checks between fields, shared by the schemas and by the service (PATCH merges the stored event
 * first). Field name → message; empty when the times are fine.
 */
export function eventTimeProblems(e: Required<EventTimes>): Record<string, string> {
  const starts = Date.parse(e.starts_at);
  const ends = Date.parse(e.ends_at);
  if (e.all_day && !isMidnightUtc(e.starts_at)) {
    return { starts_at: 'An all-day event starts at 00:00 UTC of its first day.' };
  }
  if (e.all_day && !isMidnightUtc(e.ends_at)) {
    return { ends_at: 'An all-day event ends at 00:00 UTC of its last day.' };
  }
  if (ends < starts) return { ends_at: 'The end must not be before the start.' };
  if (ends - starts > MAX_EVENT_DAYS * DAY_MS) {
    return { ends_at: `An event lasts at most ${MAX_EVENT_DAYS} days.` };
  }
  return {};
}

function checkTimes(e: EventTimes, ctx: z.RefinementCtx): void {
  if (e.starts_at === undefined || e.ends_at === undefined || e.all_day === undefined) return;
  for (const [field, message] of Object.entries(
    eventTimeProblems({ starts_at: e.starts_at, ends_at: e.ends_at, all_day: e.all_day }),
  )) {
    ctx.addIssue({ code: 'custom', message, path: [field] });
  }
}

/** `POST Event/{course_id}/`. */
export const EventCreate = z
  .strictObject({
    ...eventFields,
    description: eventFields.description.default(''),
    kind: eventFields.kind.default('other'),
    all_day: eventFields.all_day.default(false),
    location: eventFields.location.default(''),
  })
  .superRefine(checkTimes);
export type EventCreate = z.infer<typeof EventCreate>;

/** `PUT Event/{course_id}/{id}/`: every field. */
export const EventReplace = z.strictObject(eventFields).superRefine(checkTimes);
export type EventReplace = z.infer<typeof EventReplace>;

/** `PATCH Event/{course_id}/{id}/`: a subset of the fields; the service checks the merged times. */
export const EventUpdate = z.strictObject(eventFields).partial().superRefine(checkTimes);
export type EventUpdate = z.infer<typeof EventUpdate>;

export const EventParams = z.object({ course_id: Id, id: Id });

/**
 * `GET Event/{course_id}/`: entries that overlap [from, to). Without either, a window around now;
 * with one, the default length from it. At most `MAX_CALENDAR_RANGE_DAYS` days.
 */
export const CalendarQuery = z
  .object({ from: IsoDate.optional(), to: IsoDate.optional() })
  .superRefine((q, ctx) => {
    if (q.from === undefined || q.to === undefined) return;
    const span = Date.parse(q.to) - Date.parse(q.from);
    if (span <= 0) ctx.addIssue({ code: 'custom', message: '`to` must be after `from`.', path: ['to'] });
    else if (span > MAX_CALENDAR_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        message: `Ask for at most ${MAX_CALENDAR_RANGE_DAYS} days at once.`,
        path: ['to'],
      });
    }
  });
export type CalendarQuery = z.infer<typeof CalendarQuery>;

/**
 * One entry of a course's calendar. Points in time (an assignment's due date) have `ends_at` equal to
 * `starts_at`. The ids say which page the entry opens: the event's details, the assignment, the quiz.
 */
export const CalendarEntry = z
  .object({
    /** Unique within the calendar and stable: `event-12`, `assignment-3-due`, `quiz-course-7`. */
    key: z.string(),
    source: CalendarSource,
    kind: CalendarEntryKind,
    title: z.string(),
    description: z.string(),
    location: z.string(),
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    all_day: z.boolean(),
    course_id: z.number().int(),
    event_id: z.number().int().nullable(),
    assignment_id: z.number().int().nullable(),
    quiz_id: z.number().int().nullable(),
    quiz_course_id: z.number().int().nullable(),
    /** Quizzes: minutes from a student's start when limited; null otherwise. */
    time_limit_minutes: z.number().int().nullable(),
  })
  .meta({ id: 'CalendarEntry' });
export type CalendarEntry = z.infer<typeof CalendarEntry>;

export const Calendar = z
  .object({
    course_id: z.number().int(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    /** Editors of the course and staff: they may add, change and delete events. */
    can_manage: z.boolean(),
    /** More than `MAX_CALENDAR_ENTRIES` of one source in the range: ask for a shorter one. */
    truncated: z.boolean(),
    results: z.array(CalendarEntry),
  })
  .meta({ id: 'Calendar' });
export type Calendar = z.infer<typeof Calendar>;

/** The caller's private feed: whoever has the URL reads the calendar, so it can be reset. */
export const CalendarFeed = z
  .object({
    /** `https://…/api/calendar/<token>.ics`, for Google Calendar and Outlook ("from URL"). */
    url: z.string(),
    /** The same with `webcal://`, which opens the desktop calendar app directly. */
    webcal_url: z.string(),
    /** When the URL was made (first use or last reset). */
    reset_at: z.iso.datetime(),
  })
  .meta({ id: 'CalendarFeed' });
export type CalendarFeed = z.infer<typeof CalendarFeed>;

/** `GET /api/calendar/{file}`: `<token>.ics`. */
export const CalendarFileParams = z.object({ file: str().max(200) });
