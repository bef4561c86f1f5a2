import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/** The account's row, named from the schema: a repository imports no other feature's repository. */
type UserRow = typeof users.$inferSelect;

/** The latest registration of a pending account wins: its password, names and language replace the old. */
export async function updatePendingRegistration(
  db: Executor,
  id: number,
  fields: { passwordHash: string; firstName: string; lastName: string; displayLang: string },
): Promise<UserRow | null> {
  const rows = await db
    .update(users)
    .set({ ...fields, passwordChangedAt: sql`clock_timestamp()` })
    .where(and(eq(users.id, id), eq(users.isActive, false), isNull(users.emailVerifiedAt)))
    .returning();
  return rows[0] ?? null;
}

/** Activates the account and records the proof; null when it was verified already (once only). */
export async function markEmailVerified(db: Executor, id: number): Promise<UserRow | null> {
  const rows = await db
    .update(users)
    .set({ isActive: true, emailVerifiedAt: sql`now()` })
    .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)))
    .returning();
  return rows[0] ?? null;
}
