import {
  eventTimeProblems,
  type Calendar,
  type CalendarQuery,
  type CourseEvent,
  type EventCreate,
  type EventReplace,
  type EventUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { forgetRenderedFeeds } from './feed-cache.ts';
import { collectEntries, resolveRange, toCalendarEntry } from './entries.ts';
import * as repo from './events.repo.ts';

/**
 * The course calendar (docs/calendar.md): every member reads it (others 404); editors of the course
 * and staff manage its events (students 403).
 */

export function toCourseEvent(row: repo.EventRow): CourseEvent {
  return {
    id: row.id,
    course_id: row.courseId,
    title: row.title,
    description: row.description,
    kind: row.kind,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    all_day: row.allDay,
    location: row.location,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function getCalendar(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  query: CalendarQuery,
): Promise<Calendar> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  const range = resolveRange(query);
  const scope: repo.CourseScope = canManageCourse(role)
    ? { managed: [courseId], studied: [], readerId: actor.userId }
    : { managed: [], studied: [courseId], readerId: actor.userId };
  const { entries, truncated } = await collectEntries(ctx.db, scope, range);
  return {
    course_id: courseId,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    can_manage: canManageCourse(role),
    truncated,
    results: entries.map(toCalendarEntry),
  };
}

/** The caller's role must let them manage the course's events: students 403, outsiders 404. */
async function requireManager(db: Executor, actor: Actor, courseId: number): Promise<void> {
  if (!canManageCourse(await getCourseRole(db, actor, courseId))) {
    throw forbidden('Only editors of the course and staff can change its calendar.');
  }
}

export async function getEvent(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  id: number,
): Promise<CourseEvent> {
  await getCourseRole(ctx.db, actor, courseId);
  const row = await repo.findEvent(ctx.db, courseId, id);
  if (!row) throw notFound();
  return toCourseEvent(row);
}

type EventInput = EventCreate | EventReplace | EventUpdate;

function toFields(input: EventInput): Partial<repo.EventFields> {
  return {
    title: input.title,
    description: input.description,
    kind: input.kind,
    startsAt: input.starts_at === undefined ? undefined : new Date(input.starts_at),
    endsAt: input.ends_at === undefined ? undefined : new Date(input.ends_at),
    allDay: input.all_day,
    location: input.location,
  };
}

export async function createEvent(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  input: EventCreate,
): Promise<CourseEvent> {
  await requireManager(ctx.db, actor, courseId);
  const row = await repo.insertEvent(ctx.db, {
    courseId,
    createdBy: actor.userId,
    title: input.title,
    description: input.description,
    kind: input.kind,
    startsAt: new Date(input.starts_at),
    endsAt: new Date(input.ends_at),
    allDay: input.all_day,
    location: input.location,
  });
  forgetRenderedFeeds(ctx.db);
  return toCourseEvent(row);
}

/** PUT and PATCH. PATCH checks the times as they will be stored (given fields over stored ones). */
export async function updateEvent(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  id: number,
  input: EventReplace | EventUpdate,
): Promise<CourseEvent> {
  const row = await ctx.db.transaction(async (tx) => {
    await requireManager(tx, actor, courseId);
    const stored = await repo.findEvent(tx, courseId, id);
    if (!stored) throw notFound();
    const problems = eventTimeProblems({
      starts_at: input.starts_at ?? stored.startsAt.toISOString(),
      ends_at: input.ends_at ?? stored.endsAt.toISOString(),
      all_day: input.all_day ?? stored.allDay,
    });
    if (Object.keys(problems).length > 0) {
      throw badRequest(
        'Invalid input.',
        Object.fromEntries(Object.entries(problems).map(([field, message]) => [field, [message]])),
      );
    }
    const fields = toFields(input);
    if (Object.values(fields).every((value) => value === undefined)) return stored;
    const updated = await repo.updateEvent(tx, courseId, id, fields);
    if (!updated) throw notFound();
    return updated;
  });
  forgetRenderedFeeds(ctx.db);
  return toCourseEvent(row);
}

export async function deleteEvent(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  id: number,
): Promise<void> {
  await requireManager(ctx.db, actor, courseId);
  if (!(await repo.deleteEvent(ctx.db, courseId, id))) throw notFound();
  forgetRenderedFeeds(ctx.db);
}
