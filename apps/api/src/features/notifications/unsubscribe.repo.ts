import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courses, users } from '../../db/schema.ts';
import { notificationMutes, notificationProfiles } from '../../db/schema-notifications.ts';

export async function userExists(db: Executor, userId: number): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return rows.length > 0;
}

/** Sets the kinds to 'off' in the person's e-mail choices, keeping their other choices. */
export async function turnEmailOff(db: Executor, userId: number, kinds: readonly string[]): Promise<void> {
  const off = Object.fromEntries(kinds.map((kind) => [kind, 'off']));
  await db
    .insert(notificationProfiles)
    .values({ userId, email: off })
    .onConflictDoUpdate({
      target: notificationProfiles.userId,
      set: {
        email: sql`${notificationProfiles.email} || excluded.email`,
        updatedAt: sql`now()`,
      },
    });
}

/** Mutes the course for the person (nothing when it is muted already or no longer exists). */
export async function muteCourse(db: Executor, userId: number, courseId: number): Promise<void> {
  await db
    .insert(notificationMutes)
    .select(
      db
        .select({ userId: sql<number>`${userId}::int`.as('user_id'), courseId: courses.id })
        .from(courses)
        .where(eq(courses.id, courseId)),
    )
    .onConflictDoNothing();
}
