import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courses, users } from '../../db/schema.ts';
import type { MAIL_STATES } from '../../db/schema-notifications.ts';
import { notificationMutes, notificationProfiles, notifications } from '../../db/schema-notifications.ts';

export type MailState = (typeof MAIL_STATES)[number];

/**
 * Locks up to `limit` pending notifications whose mail_after has come (`now`, else the database's clock),
 * with what deciding and writing their e-mails needs: the person, their profile and the course.
 */
export async function claimPendingNotifications(tx: Executor, now: Date | null, limit: number) {
  return (
    tx
      .select({
        id: notifications.id,
        userId: notifications.userId,
        courseId: notifications.courseId,
        kind: notifications.kind,
        link: notifications.link,
        facts: notifications.facts,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        courseTitle: courses.title,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        displayLang: users.displayLang,
        isActive: users.isActive,
        saved: notificationProfiles.email,
        timeZone: notificationProfiles.timeZone,
        emailRefusedAt: notificationProfiles.emailRefusedAt,
        isMuted: sql<boolean>`exists (select 1 from ${notificationMutes}
        where ${notificationMutes.userId} = ${notifications.userId}
          and ${notificationMutes.courseId} = ${notifications.courseId})`,
      })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .leftJoin(courses, eq(courses.id, notifications.courseId))
      .leftJoin(notificationProfiles, eq(notificationProfiles.userId, notifications.userId))
      .where(and(eq(notifications.mailState, 'pending'), lte(notifications.mailAfter, now ?? sql`now()`)))
      .orderBy(asc(notifications.mailAfter), asc(notifications.id))
      .limit(limit)
      // Another instance's mailer takes other rows meanwhile; a row it holds is left to it.
      .for('update', { of: notifications, skipLocked: true })
  );
}

export type PendingNotification = Awaited<ReturnType<typeof claimPendingNotifications>>[number];

/** Sets the mail state of the rows, by state (one statement per state). */
export async function setMailStates(tx: Executor, states: Map<number, MailState>): Promise<void> {
  const byState = new Map<MailState, number[]>();
  for (const [id, state] of states) byState.set(state, [...(byState.get(state) ?? []), id]);
  for (const [state, ids] of byState) {
    await tx.update(notifications).set({ mailState: state }).where(inArray(notifications.id, ids));
  }
}

/**
 * Marks the person's address refused (the first refusal's time is kept), creating their profile row
 * with the defaults if they have none.
 */
export async function markEmailRefused(db: Executor, userId: number): Promise<void> {
  await db
    .insert(notificationProfiles)
    .values({ userId, emailRefusedAt: sql`now()` })
    .onConflictDoUpdate({
      target: notificationProfiles.userId,
      set: {
        emailRefusedAt: sql`coalesce(${notificationProfiles.emailRefusedAt}, excluded.email_refused_at)`,
      },
    });
}
