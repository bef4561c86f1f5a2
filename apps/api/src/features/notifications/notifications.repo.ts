import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { courses } from '../../db/schema.ts';
import { notificationMutes, notificationProfiles, notifications } from '../../db/schema-notifications.ts';
import type { Executor } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';

export type NotificationRow = typeof notifications.$inferSelect & { courseTitle: string | null };
export type ProfileRow = typeof notificationProfiles.$inferSelect;

/** A page of a person's notifications, newest first (ids only grow: the id is the keyset). */
export async function listNotifications(
  db: Executor,
  userId: number,
  options: { beforeId: number | null; limit: number; unreadOnly: boolean },
): Promise<NotificationRow[]> {
  return db
    .select({
      id: notifications.id,
      userId: notifications.userId,
      courseId: notifications.courseId,
      kind: notifications.kind,
      eventKey: notifications.eventKey,
      link: notifications.link,
      facts: notifications.facts,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
      mailState: notifications.mailState,
      mailAfter: notifications.mailAfter,
      courseTitle: courses.title,
    })
    .from(notifications)
    .leftJoin(courses, eq(courses.id, notifications.courseId))
    .where(
      and(
        eq(notifications.userId, userId),
        options.beforeId === null ? undefined : lt(notifications.id, options.beforeId),
        options.unreadOnly ? isNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(options.limit);
}

export async function countUnread(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks one of the person's notifications read; null when it is not theirs (or does not exist). */
export async function markRead(db: Executor, userId: number, id: number): Promise<boolean> {
  const found = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return found.length > 0;
}

export async function markAllRead(
  db: Executor,
  userId: number,
  filter: { courseId?: number; link?: string },
): Promise<number> {
  const marked = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        filter.courseId === undefined ? undefined : eq(notifications.courseId, filter.courseId),
        filter.link === undefined ? undefined : eq(notifications.link, filter.link),
      ),
    )
    .returning({ id: notifications.id });
  return marked.length;
}

export async function findProfile(db: Executor, userId: number): Promise<ProfileRow | null> {
  const [row] = await db.select().from(notificationProfiles).where(eq(notificationProfiles.userId, userId));
  return row ?? null;
}

export async function listMutedCourseIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .select({ courseId: notificationMutes.courseId })
    .from(notificationMutes)
    .where(eq(notificationMutes.userId, userId))
    .orderBy(notificationMutes.courseId);
  return rows.map((row) => row.courseId);
}

/**
 * Saves a person's choices. Saving clears a refused address: the person has seen the notice and asks
 * for mail again (a new refusal marks it again).
 */
export async function saveProfile(
  tx: Executor,
  userId: number,
  changes: { email?: Record<string, string>; digestHour?: number; timeZone?: string | null },
): Promise<void> {
  const set = {
    ...(changes.email === undefined ? {} : { email: changes.email }),
    ...(changes.digestHour === undefined ? {} : { digestHour: changes.digestHour }),
    ...(changes.timeZone === undefined ? {} : { timeZone: changes.timeZone }),
    emailRefusedAt: null,
    updatedAt: sql`now()`,
  };
  await tx
    .insert(notificationProfiles)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: notificationProfiles.userId, set });
}

/** Replaces the person's muted courses with `courseIds` (those they belong to; the caller checks). */
export async function replaceMutes(tx: Executor, userId: number, courseIds: number[]): Promise<void> {
  await tx.delete(notificationMutes).where(eq(notificationMutes.userId, userId));
  if (courseIds.length > 0) {
    await tx
      .insert(notificationMutes)
      .values(courseIds.map((courseId) => ({ userId, courseId })))
      .onConflictDoNothing();
  }
}

/** Of `courseIds`, those the person is a member of (student or editor). */
export async function filterMemberCourses(
  db: Executor,
  userId: number,
  courseIds: number[],
): Promise<number[]> {
  if (courseIds.length === 0) return [];
  const result = await db.execute(sql`
    SELECT course_id FROM course_students WHERE user_id = ${userId} AND ${inIntArray(sql`course_id`, courseIds)}
    UNION
    SELECT course_id FROM course_editors WHERE user_id = ${userId} AND ${inIntArray(sql`course_id`, courseIds)}`);
  return CourseIds.parse(result).rows.map((row) => row.course_id);
}

const CourseIds = z.object({ rows: z.array(z.object({ course_id: z.coerce.number() })) });

export async function findCourseSwitch(db: Executor, courseId: number): Promise<boolean | null> {
  const [row] = await db
    .select({ on: courses.notifyEditorsOfMembers })
    .from(courses)
    .where(eq(courses.id, courseId));
  return row ? row.on : null;
}

export async function setCourseSwitch(db: Executor, courseId: number, on: boolean): Promise<void> {
  await db.update(courses).set({ notifyEditorsOfMembers: on }).where(eq(courses.id, courseId));
}
