import { and, asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  ownAssignmentDates,
  ownAssignmentExtension,
  ownAssignmentExtensionOn,
  ownQuizExtension,
  ownQuizExtensionOn,
  ownQuizWindow,
} from '../../db/own-dates.ts';
import { courses } from '../../db/schema.ts';
import { assignmentCourses, assignments } from '../../db/schema-assignments.ts';
import { events } from '../../db/schema-calendar.ts';
import { quizCourses, quizzes } from '../../db/schema-quizzes.ts';
import { inIntArray } from '../../db/int-array.ts';

export type EventRow = typeof events.$inferSelect;
export type EventFields = Pick<
  typeof events.$inferInsert,
  'title' | 'description' | 'kind' | 'startsAt' | 'endsAt' | 'allDay' | 'location'
>;

/** A range of time, `from` included, `to` excluded. */
export interface Range {
  from: Date;
  to: Date;
}

/**
 * Which courses to read, and how much of each: a course the reader manages (edits, or staff) shows
 * every assignment; a course they study only those opened (`opens_at` passed).
 */
export interface CourseScope {
  managed: number[];
  studied: number[];
  /** Whose dates: a student with an extension sees their own (docs/extensions.md). */
  readerId: number;
}

const allCourses = (scope: CourseScope) => [...scope.managed, ...scope.studied];

/* ─── Events ─────────────────────────────────────────────────────────────────────────────────── */

export async function findEvent(db: Executor, courseId: number, id: number): Promise<EventRow | null> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.courseId, courseId)))
    .limit(1);
  return row ?? null;
}

export async function insertEvent(
  db: Executor,
  fields: EventFields & { courseId: number; createdBy: number },
): Promise<EventRow> {
  const [row] = await db.insert(events).values(fields).returning();
  return row!;
}

export async function updateEvent(
  db: Executor,
  courseId: number,
  id: number,
  fields: Partial<EventFields>,
): Promise<EventRow | null> {
  const [row] = await db
    .update(events)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(events.id, id), eq(events.courseId, courseId)))
    .returning();
  return row ?? null;
}

export async function deleteEvent(db: Executor, courseId: number, id: number): Promise<boolean> {
  const deleted = await db
    .delete(events)
    .where(and(eq(events.id, id), eq(events.courseId, courseId)))
    .returning({ id: events.id });
  return deleted.length > 0;
}

/* ─── Calendar entries: events, assignment dates, quiz windows ──────────────────────────────── */

export interface EventInRange extends EventRow {
  courseTitle: string;
}

/**
 * Events of the courses overlapping the range. All-day events are dates (00:00 UTC), shown on that date
 * in every time zone, so they are taken two days wider on each side; the page places them by date.
 */
export async function listEventsInRange(
  db: Executor,
  courseIds: number[],
  range: Range,
  limit: number,
): Promise<EventInRange[]> {
  if (courseIds.length === 0) return [];
  const pad = sql`case when ${events.allDay} then interval '2 days' else interval '0' end`;
  const rows = await db
    .select({ event: events, courseTitle: courses.title })
    .from(events)
    .innerJoin(courses, eq(courses.id, events.courseId))
    .where(
      and(
        inIntArray(events.courseId, courseIds),
        sql`${events.startsAt} < ${range.to.toISOString()}::timestamptz + ${pad}`,
        sql`${events.endsAt} >= ${range.from.toISOString()}::timestamptz - ${pad}`,
      ),
    )
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.event, courseTitle: r.courseTitle }));
}

export interface DeadlineRow {
  assignmentId: number;
  title: string;
  courseId: number;
  courseTitle: string;
  dueAt: Date;
  lateUntil: Date | null;
}

/** Assignments whose due date or late cut-off falls in the range, as far as the reader sees them. */
export async function listDeadlinesInRange(
  db: Executor,
  scope: CourseScope,
  range: Range,
  limit: number,
): Promise<DeadlineRow[]> {
  if (allCourses(scope).length === 0) return [];
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const inRange = (column: AnyColumn | SQL) =>
    sql`(${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz)`;
  return db
    .select({
      assignmentId: assignmentCourses.assignmentId,
      title: assignments.title,
      courseId: assignmentCourses.courseId,
      courseTitle: courses.title,
      dueAt: ownAssignmentDates.dueAt,
      lateUntil: ownAssignmentDates.lateUntil,
    })
    .from(assignmentCourses)
    .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
    .innerJoin(courses, eq(courses.id, assignmentCourses.courseId))
    .leftJoin(ownAssignmentExtension, ownAssignmentExtensionOn(scope.readerId))
    .where(
      and(
        sql`(${inIntArray(assignmentCourses.courseId, scope.managed)} or (${inIntArray(assignmentCourses.courseId, scope.studied)} and ${assignmentCourses.opensAt} <= now()))`,
        sql`(${inRange(ownAssignmentDates.dueAt)} or ${inRange(ownAssignmentDates.lateUntil)})`,
      ),
    )
    .orderBy(asc(ownAssignmentDates.dueAt), asc(assignmentCourses.assignmentId))
    .limit(limit);
}

export interface QuizWindowRow {
  quizCourseId: number;
  quizId: number;
  title: string;
  courseId: number;
  courseTitle: string;
  opensAt: Date;
  closesAt: Date;
  timeLimitMinutes: number | null;
}

/**
 * Quiz windows of the courses overlapping the range. Read from the quiz tables directly: the calendar
 * needs only the window and the title, and every member of the course sees them, upcoming ones too.
 */
export async function listQuizWindowsInRange(
  db: Executor,
  courseIds: number[],
  readerId: number,
  range: Range,
  limit: number,
): Promise<QuizWindowRow[]> {
  if (courseIds.length === 0) return [];
  return db
    .select({
      quizCourseId: quizCourses.id,
      quizId: quizCourses.quizId,
      title: quizzes.title,
      courseId: quizCourses.courseId,
      courseTitle: courses.title,
      opensAt: quizCourses.opensAt,
      closesAt: ownQuizWindow.closesAt,
      timeLimitMinutes: ownQuizWindow.timeLimitMinutes,
    })
    .from(quizCourses)
    .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
    .innerJoin(courses, eq(courses.id, quizCourses.courseId))
    .leftJoin(ownQuizExtension, ownQuizExtensionOn(readerId))
    .where(
      and(
        inIntArray(quizCourses.courseId, courseIds),
        sql`${quizCourses.opensAt} < ${range.to.toISOString()}::timestamptz`,
        sql`${ownQuizWindow.closesAt} >= ${range.from.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(quizCourses.opensAt), asc(quizCourses.id))
    .limit(limit);
}
