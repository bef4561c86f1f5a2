import { and, asc, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courses, users } from '../../db/schema.ts';
import { notificationMutes, notificationProfiles, notifications } from '../../db/schema-notifications.ts';

/**
 * People with notifications waiting for their digest, after `afterUserId` in id order: their digest
 * settings (null without a profile row) and the time of the oldest waiting notification.
 */
export async function listDigestCandidates(db: Executor, afterUserId: number, limit: number) {
  return db
    .select({
      userId: notifications.userId,
      timeZone: notificationProfiles.timeZone,
      digestHour: notificationProfiles.digestHour,
      lastDigestOn: notificationProfiles.lastDigestOn,
      oldest: sql<Date>`min(${notifications.createdAt})`.mapWith(notifications.createdAt),
    })
    .from(notifications)
    .leftJoin(notificationProfiles, eq(notificationProfiles.userId, notifications.userId))
    .where(and(eq(notifications.mailState, 'digest'), gt(notifications.userId, afterUserId)))
    .groupBy(
      notifications.userId,
      notificationProfiles.timeZone,
      notificationProfiles.digestHour,
      notificationProfiles.lastDigestOn,
    )
    .orderBy(asc(notifications.userId))
    .limit(limit);
}

/** The person's profile row, made with the defaults if absent, locked until the transaction ends. */
export async function lockProfile(tx: Executor, userId: number) {
  await tx.insert(notificationProfiles).values({ userId }).onConflictDoNothing();
  const [profile] = await tx
    .select()
    .from(notificationProfiles)
    .where(eq(notificationProfiles.userId, userId))
    .for('update');
  return profile ?? null;
}

export async function findRecipient(tx: Executor, userId: number) {
  const [row] = await tx
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      displayLang: users.displayLang,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The person's notifications waiting for the digest, made up to `until`, newest first, locked. */
export async function listWaitingForDigest(tx: Executor, userId: number, until: Date) {
  return tx
    .select({
      id: notifications.id,
      kind: notifications.kind,
      courseId: notifications.courseId,
      courseTitle: courses.title,
      link: notifications.link,
      facts: notifications.facts,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
      isMuted: sql<boolean>`exists (select 1 from ${notificationMutes}
        where ${notificationMutes.userId} = ${notifications.userId}
          and ${notificationMutes.courseId} = ${notifications.courseId})`,
    })
    .from(notifications)
    .leftJoin(courses, eq(courses.id, notifications.courseId))
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.mailState, 'digest'),
        lte(notifications.createdAt, until),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .for('update', { of: notifications });
}

export async function setLastDigestOn(tx: Executor, userId: number, date: string): Promise<void> {
  await tx
    .update(notificationProfiles)
    .set({ lastDigestOn: date })
    .where(eq(notificationProfiles.userId, userId));
}
