import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { samlAssertionsSeen, spKeys, ssoCodes, ssoRequests, ssoSessions } from '../../db/schema-identity.ts';

/*
 * The state of sign-ins in flight, in the database so that every API instance can finish what another
 * began. Requests and codes are taken once (DELETE … RETURNING): of two instances racing with the same
 * one, one gets it.
 */

export type SsoRequestRow = typeof ssoRequests.$inferSelect;
export type SsoCodeRow = typeof ssoCodes.$inferSelect;
export type NewSsoCode = typeof ssoCodes.$inferInsert;

export async function insertSsoRequest(db: Executor, row: typeof ssoRequests.$inferInsert): Promise<void> {
  await db.insert(ssoRequests).values(row);
}

export async function setSamlRequestId(db: Executor, id: string, samlRequestId: string): Promise<void> {
  await db.update(ssoRequests).set({ samlRequestId }).where(eq(ssoRequests.id, id));
}

/** The request, removed; null when unknown, already taken or expired. */
export async function takeSsoRequest(db: Executor, id: string): Promise<SsoRequestRow | null> {
  const rows = await db
    .delete(ssoRequests)
    .where(and(eq(ssoRequests.id, id), gt(ssoRequests.expiresAt, sql`now()`)))
    .returning();
  return rows[0] ?? null;
}

/** True the first time this assertion id is seen from this provider; false on a replay. */
export async function rememberAssertion(
  db: Executor,
  providerId: number,
  assertionId: string,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await db
    .insert(samlAssertionsSeen)
    .values({ providerId, assertionId, expiresAt })
    .onConflictDoNothing()
    .returning({ id: samlAssertionsSeen.assertionId });
  return rows.length > 0;
}

export async function insertSsoCode(db: Executor, row: typeof ssoCodes.$inferInsert): Promise<void> {
  await db.insert(ssoCodes).values(row);
}

export async function takeSsoCode(
  db: Executor,
  codeHash: string,
  purpose: SsoCodeRow['purpose'],
): Promise<SsoCodeRow | null> {
  const rows = await db
    .delete(ssoCodes)
    .where(
      and(eq(ssoCodes.codeHash, codeHash), eq(ssoCodes.purpose, purpose), gt(ssoCodes.expiresAt, sql`now()`)),
    )
    .returning();
  return rows[0] ?? null;
}

export async function peekSsoCode(
  db: Executor,
  codeHash: string,
  purpose: SsoCodeRow['purpose'],
): Promise<SsoCodeRow | null> {
  const rows = await db
    .select()
    .from(ssoCodes)
    .where(
      and(eq(ssoCodes.codeHash, codeHash), eq(ssoCodes.purpose, purpose), gt(ssoCodes.expiresAt, sql`now()`)),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function insertSsoSession(db: Executor, row: typeof ssoSessions.$inferInsert): Promise<void> {
  await db.insert(ssoSessions).values(row).onConflictDoNothing();
}

export async function findSsoSession(db: Executor, sessionId: string) {
  const rows = await db.select().from(ssoSessions).where(eq(ssoSessions.sessionId, sessionId)).limit(1);
  return rows[0] ?? null;
}

/** The Kadai sessions an IdP's LogoutRequest names: by NameID, narrowed by session index when given. */
export async function sessionsOfNameId(
  db: Executor,
  providerId: number,
  nameId: string,
  sessionIndexes: string[],
): Promise<{ sessionId: string }[]> {
  return db
    .select({ sessionId: ssoSessions.sessionId })
    .from(ssoSessions)
    .where(
      and(
        eq(ssoSessions.providerId, providerId),
        eq(ssoSessions.nameId, nameId),
        sessionIndexes.length > 0 ? inArray(ssoSessions.sessionIndex, sessionIndexes) : undefined,
      ),
    )
    .limit(1000);
}

/** Drops what has expired; called now and then by new sign-ins, so the tables stay small. */
export async function pruneExpired(db: Executor): Promise<void> {
  await db.delete(ssoRequests).where(lt(ssoRequests.expiresAt, sql`now()`));
  await db.delete(ssoCodes).where(lt(ssoCodes.expiresAt, sql`now()`));
  await db.delete(samlAssertionsSeen).where(lt(samlAssertionsSeen.expiresAt, sql`now()`));
}

/** The SP's key pair: the oldest one, so instances that made one at once all settle on the same. */
export async function oldestSpKeyRow(db: Executor) {
  const rows = await db.select().from(spKeys).orderBy(asc(spKeys.id)).limit(1);
  return rows[0] ?? null;
}

export async function insertSpKeyRow(db: Executor, row: typeof spKeys.$inferInsert): Promise<void> {
  await db.insert(spKeys).values(row);
}
