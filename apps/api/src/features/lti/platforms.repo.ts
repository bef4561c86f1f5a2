import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ltiContexts, ltiPlatforms, ltiRegistrationTokens } from '../../db/schema-lti.ts';

export type PlatformRow = typeof ltiPlatforms.$inferSelect;
export type NewPlatformRow = typeof ltiPlatforms.$inferInsert;

export async function listPlatformRows(db: Executor): Promise<(PlatformRow & { contextCount: number })[]> {
  const rows = await db
    .select({ platform: ltiPlatforms, contextCount: count(ltiContexts.id) })
    .from(ltiPlatforms)
    .leftJoin(ltiContexts, eq(ltiContexts.platformId, ltiPlatforms.id))
    .groupBy(ltiPlatforms.id)
    .orderBy(asc(ltiPlatforms.id))
    .limit(200);
  return rows.map((r) => ({ ...r.platform, contextCount: r.contextCount }));
}

export async function findPlatformRow(db: Executor, id: number): Promise<PlatformRow | null> {
  const rows = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The registration of a launch: the issuer with the client id the platform names (or its only one). */
export async function findPlatformRowsByIssuer(db: Executor, issuer: string): Promise<PlatformRow[]> {
  return db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, issuer)).limit(20);
}

/** Inserts the platform; null when the (issuer, client id) pair is registered already. */
export async function insertPlatformRow(db: Executor, row: NewPlatformRow): Promise<PlatformRow | null> {
  const rows = await db.insert(ltiPlatforms).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function updatePlatformRow(
  db: Executor,
  id: number,
  changes: Partial<NewPlatformRow>,
): Promise<PlatformRow | null> {
  const rows = await db
    .update(ltiPlatforms)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(ltiPlatforms.id, id))
    .returning();
  return rows[0] ?? null;
}

export async function deletePlatformRow(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .delete(ltiPlatforms)
    .where(eq(ltiPlatforms.id, id))
    .returning({ id: ltiPlatforms.id });
  return rows.length > 0;
}

/** Every origin an enabled platform's pages may frame Kadai from. */
export async function listFrameOrigins(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ origin: sql<string>`unnest(${ltiPlatforms.frameOrigins})` })
    .from(ltiPlatforms)
    .where(eq(ltiPlatforms.enabled, true));
  return [...new Set(rows.map((r) => r.origin))];
}

export async function insertRegistrationToken(
  db: Executor,
  row: typeof ltiRegistrationTokens.$inferInsert,
): Promise<void> {
  await db.insert(ltiRegistrationTokens).values(row);
}

/** The registration token, removed (each works once); null when unknown, used or expired. */
export async function takeRegistrationToken(db: Executor, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(ltiRegistrationTokens)
    .where(
      and(eq(ltiRegistrationTokens.tokenHash, tokenHash), gt(ltiRegistrationTokens.expiresAt, sql`now()`)),
    )
    .returning({ tokenHash: ltiRegistrationTokens.tokenHash });
  return rows.length > 0;
}

export async function peekRegistrationToken(db: Executor, tokenHash: string): Promise<boolean> {
  const rows = await db
    .select({ tokenHash: ltiRegistrationTokens.tokenHash })
    .from(ltiRegistrationTokens)
    .where(
      and(eq(ltiRegistrationTokens.tokenHash, tokenHash), gt(ltiRegistrationTokens.expiresAt, sql`now()`)),
    )
    .limit(1);
  return rows.length > 0;
}
