import {
  DEFAULT_CALENDAR_DAYS_AFTER,
  DEFAULT_CALENDAR_DAYS_BEFORE,
  MAX_CALENDAR_ENTRIES,
  type CalendarEntry,
  type CalendarEntryKind,
  type CalendarQuery,
  type CalendarSource,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import * as repo from './events.repo.ts';

const DAY_MS = 86_400_000;

/** One entry of a calendar, with its course's title (the feed prefixes summaries with it). */
export interface Entry {
  key: string;
  source: CalendarSource;
  kind: CalendarEntryKind;
  title: string;
  description: string;
  location: string;
  startsAt: Date;
  endsAt: Date;
  allDay: boolean;
  courseId: number;
  courseTitle: string;
  eventId: number | null;
  assignmentId: number | null;
  quizId: number | null;
  quizCourseId: number | null;
  /** Quizzes: minutes from a student's start, when limited. */
  timeLimitMinutes: number | null;
}

/** The range asked for, or the default window (around now, or the default length from the one end given). */
export function resolveRange(query: CalendarQuery, now: Date = new Date()): repo.Range {
  const length = (DEFAULT_CALENDAR_DAYS_BEFORE + DEFAULT_CALENDAR_DAYS_AFTER) * DAY_MS;
  if (query.from !== undefined && query.to !== undefined) {
    return { from: new Date(query.from), to: new Date(query.to) };
  }
  if (query.from !== undefined) {
    const from = new Date(query.from);
    return { from, to: new Date(from.getTime() + length) };
  }
  if (query.to !== undefined) {
    const to = new Date(query.to);
    return { from: new Date(to.getTime() - length), to };
  }
  return {
    from: new Date(now.getTime() - DEFAULT_CALENDAR_DAYS_BEFORE * DAY_MS),
    to: new Date(now.getTime() + DEFAULT_CALENDAR_DAYS_AFTER * DAY_MS),
  };
}

const blank = { description: '', location: '', allDay: false, timeLimitMinutes: null } as const;
const noIds = { eventId: null, assignmentId: null, quizId: null, quizCourseId: null } as const;

function fromEvent(row: repo.EventInRange): Entry {
  return {
    ...noIds,
    key: `event-${row.id}`,
    source: 'event',
    kind: row.kind,
    title: row.title,
    description: row.description,
    location: row.location,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    allDay: row.allDay,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    eventId: row.id,
    timeLimitMinutes: null,
  };
}

function fromDeadline(row: repo.DeadlineRow, range: repo.Range): Entry[] {
  const within = (at: Date) => at >= range.from && at < range.to;
  const point = (kind: 'assignment_due' | 'assignment_late', at: Date): Entry => ({
    ...blank,
    ...noIds,
    key: `assignment-${row.assignmentId}-course-${row.courseId}-${kind === 'assignment_due' ? 'due' : 'late'}`,
    source: 'assignment',
    kind,
    title: row.title,
    startsAt: at,
    endsAt: at,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    assignmentId: row.assignmentId,
  });
  const entries: Entry[] = [];
  if (within(row.dueAt)) entries.push(point('assignment_due', row.dueAt));
  if (row.lateUntil && within(row.lateUntil)) entries.push(point('assignment_late', row.lateUntil));
  return entries;
}

function fromQuizWindow(row: repo.QuizWindowRow): Entry {
  return {
    ...blank,
    ...noIds,
    key: `quiz-course-${row.quizCourseId}`,
    source: 'quiz',
    kind: 'quiz_window',
    title: row.title,
    startsAt: row.opensAt,
    endsAt: row.closesAt,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    quizId: row.quizId,
    quizCourseId: row.quizCourseId,
    timeLimitMinutes: row.timeLimitMinutes,
  };
}

const SOURCE_ORDER: Record<CalendarSource, number> = { event: 0, quiz: 1, assignment: 2 };

/**
 * Everything on the calendars of the scope's courses in the range, in order of start. `truncated`: one
 * source had more than MAX_CALENDAR_ENTRIES rows, so some are missing.
 */
export async function collectEntries(
  db: Executor,
  scope: repo.CourseScope,
  range: repo.Range,
  limit: number = MAX_CALENDAR_ENTRIES,
): Promise<{ entries: Entry[]; truncated: boolean }> {
  const courseIds = [...scope.managed, ...scope.studied];
  // One more than the limit tells whether anything was left out.
  const [eventRows, deadlineRows, quizRows] = await Promise.all([
    repo.listEventsInRange(db, courseIds, range, limit + 1),
    repo.listDeadlinesInRange(db, scope, range, limit + 1),
    repo.listQuizWindowsInRange(db, courseIds, scope.readerId, range, limit + 1),
  ]);
  const truncated = [eventRows, deadlineRows, quizRows].some((rows) => rows.length > limit);
  const entries = [
    ...eventRows.slice(0, limit).map(fromEvent),
    ...deadlineRows.slice(0, limit).flatMap((row) => fromDeadline(row, range)),
    ...quizRows.slice(0, limit).map(fromQuizWindow),
  ].sort(
    (a, b) =>
      a.startsAt.getTime() - b.startsAt.getTime() ||
      SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] ||
      a.key.localeCompare(b.key),
  );
  return { entries, truncated };
}

export function toCalendarEntry(entry: Entry): CalendarEntry {
  return {
    key: entry.key,
    source: entry.source,
    kind: entry.kind,
    title: entry.title,
    description: entry.description,
    location: entry.location,
    starts_at: entry.startsAt.toISOString(),
    ends_at: entry.endsAt.toISOString(),
    all_day: entry.allDay,
    course_id: entry.courseId,
    event_id: entry.eventId,
    assignment_id: entry.assignmentId,
    quiz_id: entry.quizId,
    quiz_course_id: entry.quizCourseId,
    time_limit_minutes: entry.timeLimitMinutes,
  };
}
