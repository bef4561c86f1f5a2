import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { EmailStatus } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { courses, users } from '../../db/schema.ts';
import { emailOutbox } from '../../db/schema-mail.ts';

export type EmailRow = typeof emailOutbox.$inferSelect;
export type NewEmailRow = typeof emailOutbox.$inferInsert;

/** Longest error text kept on a row: SMTP answers can be long, and only the gist helps staff. */
const MAX_ERROR_LENGTH = 1000;

export async function insertEmails(db: Executor, rows: NewEmailRow[]): Promise<EmailRow[]> {
  if (rows.length === 0) return [];
  return db.insert(emailOutbox).values(rows).returning();
}

/**
 * Inserts e-mails that each carry a dedupe key (`notification:12`, `digest:7:2026-11-29`): a key already
 * in the outbox inserts nothing, so a second writer of the same e-mail (another instance, a retried job)
 * adds no second copy. Returns the rows this call added.
 */
export async function insertEmailsOnce(db: Executor, rows: NewEmailRow[]): Promise<EmailRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(emailOutbox)
    .values(rows)
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning();
}

export async function findEmail(db: Executor, id: number): Promise<EmailRow | null> {
  const rows = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Newest first (id breaks ties within one transaction); `count` is the number matching the filter. */
export async function listEmails(
  db: Executor,
  query: { status?: EmailStatus; limit: number; offset: number },
): Promise<{ count: number; rows: EmailRow[] }> {
  const where = query.status ? eq(emailOutbox.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(emailOutbox)
      .where(where)
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ count: count() }).from(emailOutbox).where(where),
  ]);
  return { count: total?.count ?? 0, rows };
}

/**
 * Takes attempt number `seenAttempts + 1` of a pending e-mail. Of two jobs for the same e-mail (a retry
 * and a sweep), only one wins an attempt, so one failure is never sent twice at once.
 */
export async function claimAttempt(db: Executor, id: number, seenAttempts: number): Promise<EmailRow | null> {
  const rows = await db
    .update(emailOutbox)
    .set({ attempts: sql`${emailOutbox.attempts} + 1` })
    .where(
      and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'pending'), eq(emailOutbox.attempts, seenAttempts)),
    )
    .returning();
  return rows[0] ?? null;
}

export async function markSent(db: Executor, id: number): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: '' })
    .where(eq(emailOutbox.id, id));
}

/** Records why an attempt failed; after the last attempt the e-mail is `failed` for good. */
export async function markAttemptFailed(
  db: Executor,
  id: number,
  error: string,
  isFinal: boolean,
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ lastError: error.slice(0, MAX_ERROR_LENGTH), ...(isFinal ? { status: 'failed' as const } : {}) })
    .where(eq(emailOutbox.id, id));
}

/** No SMTP server is configured: the e-mail stays here for staff to read. */
export async function markKept(db: Executor, id: number): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ status: 'kept' })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'pending')));
}

/** Pending e-mails never tried and older than `seconds`: their job was lost (a crash after commit). */
export async function listUntriedPendingIds(db: Executor, seconds: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.status, 'pending'),
        eq(emailOutbox.attempts, 0),
        lt(emailOutbox.createdAt, sql`now() - make_interval(secs => ${seconds})`),
      ),
    )
    .orderBy(emailOutbox.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The course an invitation names and the name of the person who added the recipient. */
export async function findInvitationContext(
  db: Executor,
  courseId: number,
  inviterId: number,
): Promise<{ courseTitle: string | null; inviter: { firstName: string; lastName: string } | null }> {
  const [course] = await db
    .select({ title: courses.title })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  const [inviter] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, inviterId))
    .limit(1);
  return { courseTitle: course?.title ?? null, inviter: inviter ?? null };
}
