import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseEditors, courseStudents, users } from '../../db/schema.ts';
import { calendarFeeds } from '../../db/schema-calendar.ts';

export interface FeedVersion {
  version: number;
  resetAt: Date;
}

/** The user's feed version, made (version 1) on first use. */
export async function ensureFeed(db: Executor, userId: number): Promise<FeedVersion> {
  await db.insert(calendarFeeds).values({ userId }).onConflictDoNothing();
  const [row] = await db
    .select({ version: calendarFeeds.version, resetAt: calendarFeeds.resetAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId));
  return row!;
}

/** A new version: every URL made with an older one stops working at once. */
export async function bumpFeed(db: Executor, userId: number): Promise<FeedVersion> {
  const [row] = await db
    .insert(calendarFeeds)
    .values({ userId, version: 2 })
    .onConflictDoUpdate({
      target: calendarFeeds.userId,
      set: { version: sql`${calendarFeeds.version} + 1`, resetAt: sql`now()` },
    })
    .returning({ version: calendarFeeds.version, resetAt: calendarFeeds.resetAt });
  return row!;
}

export interface FeedOwner {
  userId: number;
  isStaff: boolean;
  displayLang: string;
  version: number;
}

/** The owner of a feed URL: an active user whose feed exists; null otherwise. */
export async function findFeedOwner(db: Executor, userId: number): Promise<FeedOwner | null> {
  const [row] = await db
    .select({
      userId: users.id,
      isStaff: users.isStaff,
      isActive: users.isActive,
      displayLang: users.displayLang,
      version: calendarFeeds.version,
    })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.userId, userId))
    .limit(1);
  if (!row || !row.isActive) return null;
  return { userId: row.userId, isStaff: row.isStaff, displayLang: row.displayLang, version: row.version };
}

export interface MemberCourse {
  courseId: number;
  isEditor: boolean;
}

/** The courses the user edits or studies (someone on both lists is an editor there). */
export async function listMemberCourses(db: Executor, userId: number): Promise<MemberCourse[]> {
  const [edited, studied] = await Promise.all([
    db
      .select({ courseId: courseEditors.courseId })
      .from(courseEditors)
      .where(eq(courseEditors.userId, userId)),
    db
      .select({ courseId: courseStudents.courseId })
      .from(courseStudents)
      .where(eq(courseStudents.userId, userId)),
  ]);
  const editorOf = new Set(edited.map((r) => r.courseId));
  return [
    ...edited.map((r) => ({ courseId: r.courseId, isEditor: true })),
    ...studied
      .filter((r) => !editorOf.has(r.courseId))
      .map((r) => ({ courseId: r.courseId, isEditor: false })),
  ];
}
