import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  ltiCodes,
  ltiContextMembers,
  ltiContexts,
  ltiDeepLinks,
  ltiLaunchStates,
  ltiNoncesSeen,
  ltiUsers,
} from '../../db/schema-lti.ts';

/*
 * Launches in flight and what they leave behind: states and nonces (taken or remembered once, by
 * whichever instance the browser reaches), the LMS's people and courses linked to Kadai's, and the
 * one-time codes the page exchanges.
 */

export type ContextRow = typeof ltiContexts.$inferSelect;
export type LtiCodeRow = typeof ltiCodes.$inferSelect;
export type DeepLinkRow = typeof ltiDeepLinks.$inferSelect;

export async function insertLaunchState(
  db: Executor,
  row: typeof ltiLaunchStates.$inferInsert,
): Promise<void> {
  await db.insert(ltiLaunchStates).values(row);
}

/** The state, removed; null when unknown, already used or expired. */
export async function takeLaunchState(db: Executor, state: string) {
  const rows = await db
    .delete(ltiLaunchStates)
    .where(and(eq(ltiLaunchStates.state, state), gt(ltiLaunchStates.expiresAt, sql`now()`)))
    .returning();
  return rows[0] ?? null;
}

/** True the first time this nonce comes from this platform; false on a replayed id_token. */
export async function rememberNonce(db: Executor, platformId: number, nonce: string, expiresAt: Date) {
  const rows = await db
    .insert(ltiNoncesSeen)
    .values({ platformId, nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: ltiNoncesSeen.nonce });
  return rows.length > 0;
}

export async function pruneExpiredLaunches(db: Executor): Promise<void> {
  await db.delete(ltiLaunchStates).where(lt(ltiLaunchStates.expiresAt, sql`now()`));
  await db.delete(ltiNoncesSeen).where(lt(ltiNoncesSeen.expiresAt, sql`now()`));
  await db.delete(ltiCodes).where(lt(ltiCodes.expiresAt, sql`now()`));
  await db.delete(ltiDeepLinks).where(lt(ltiDeepLinks.expiresAt, sql`now()`));
}

export async function findLtiUser(db: Executor, platformId: number, sub: string) {
  const rows = await db
    .select()
    .from(ltiUsers)
    .where(and(eq(ltiUsers.platformId, platformId), eq(ltiUsers.sub, sub)))
    .limit(1);
  return rows[0] ?? null;
}

/** Links (platform, sub) to the user; an earlier link wins. Returns the user the link names. */
export async function linkLtiUser(
  db: Executor,
  row: { platformId: number; sub: string; userId: number; email: string | null },
): Promise<number> {
  await db
    .insert(ltiUsers)
    .values({ ...row, lastLaunchAt: new Date() })
    .onConflictDoUpdate({
      target: [ltiUsers.platformId, ltiUsers.sub],
      set: { email: row.email, lastLaunchAt: new Date() },
    });
  return (await findLtiUser(db, row.platformId, row.sub))!.userId;
}

/** The platform's people among `subs`: sub → Kadai user. */
export async function mapLtiUsers(
  db: Executor,
  platformId: number,
  subs: string[],
): Promise<Map<string, number>> {
  if (subs.length === 0) return new Map();
  const rows = await db
    .select({ sub: ltiUsers.sub, userId: ltiUsers.userId })
    .from(ltiUsers)
    .where(and(eq(ltiUsers.platformId, platformId), inArray(ltiUsers.sub, subs)));
  return new Map(rows.map((r) => [r.sub, r.userId]));
}

/** Kadai user → the platform's `sub` for them, for these users. */
export async function subsOfUsers(
  db: Executor,
  platformId: number,
  userIds: number[],
): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ sub: ltiUsers.sub, userId: ltiUsers.userId })
    .from(ltiUsers)
    .where(and(eq(ltiUsers.platformId, platformId), inArray(ltiUsers.userId, userIds)));
  return new Map(rows.map((r) => [r.userId, r.sub]));
}

/** Records the LMS course as the launch describes it (its services may change between launches). */
export async function upsertContext(
  db: Executor,
  row: Omit<typeof ltiContexts.$inferInsert, 'courseId'>,
): Promise<ContextRow> {
  const changes = {
    title: row.title,
    label: row.label,
    updatedAt: new Date(),
    ...(row.lineItemsUrl ? { lineItemsUrl: row.lineItemsUrl, agsScopes: row.agsScopes } : {}),
    ...(row.membershipsUrl ? { membershipsUrl: row.membershipsUrl } : {}),
  };
  const rows = await db
    .insert(ltiContexts)
    .values(row)
    .onConflictDoUpdate({
      target: [ltiContexts.platformId, ltiContexts.deploymentId, ltiContexts.contextId],
      set: changes,
    })
    .returning();
  return rows[0]!;
}

export async function findContext(db: Executor, id: number): Promise<ContextRow | null> {
  const rows = await db.select().from(ltiContexts).where(eq(ltiContexts.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function listContextsOfCourse(db: Executor, courseId: number): Promise<ContextRow[]> {
  return db
    .select()
    .from(ltiContexts)
    .where(eq(ltiContexts.courseId, courseId))
    .orderBy(ltiContexts.id)
    .limit(50);
}

/** Links the LMS course to `courseId` unless another instructor linked it first; returns the link. */
export async function setContextCourse(db: Executor, id: number, courseId: number): Promise<number | null> {
  await db
    .update(ltiContexts)
    .set({ courseId, updatedAt: new Date() })
    .where(and(eq(ltiContexts.id, id), sql`${ltiContexts.courseId} is null`));
  return (await findContext(db, id))?.courseId ?? null;
}

export async function setRosterSynced(db: Executor, id: number, error: string | null): Promise<void> {
  await db
    .update(ltiContexts)
    .set(error === null ? { rosterSyncedAt: new Date(), rosterError: null } : { rosterError: error })
    .where(eq(ltiContexts.id, id));
}

export async function listSyncableContexts(db: Executor): Promise<ContextRow[]> {
  return db
    .select()
    .from(ltiContexts)
    .where(sql`${ltiContexts.courseId} is not null and ${ltiContexts.membershipsUrl} is not null`)
    .limit(10_000);
}

export async function recordContextMember(
  db: Executor,
  contextRowId: number,
  userId: number,
  role: 'instructor' | 'learner',
): Promise<void> {
  await db
    .insert(ltiContextMembers)
    .values({ contextRowId, userId, role })
    .onConflictDoUpdate({
      target: [ltiContextMembers.contextRowId, ltiContextMembers.userId],
      set: { role, lastLaunchAt: new Date() },
    });
}

export async function findContextRole(db: Executor, contextRowId: number, userId: number) {
  const rows = await db
    .select({ role: ltiContextMembers.role })
    .from(ltiContextMembers)
    .where(and(eq(ltiContextMembers.contextRowId, contextRowId), eq(ltiContextMembers.userId, userId)))
    .limit(1);
  return rows[0]?.role ?? null;
}

export async function insertLtiCode(db: Executor, row: typeof ltiCodes.$inferInsert): Promise<void> {
  await db.insert(ltiCodes).values(row);
}

export async function takeLtiCode(db: Executor, codeHash: string, purpose: LtiCodeRow['purpose']) {
  const rows = await db
    .delete(ltiCodes)
    .where(
      and(eq(ltiCodes.codeHash, codeHash), eq(ltiCodes.purpose, purpose), gt(ltiCodes.expiresAt, sql`now()`)),
    )
    .returning();
  return rows[0] ?? null;
}

export async function peekLtiCode(db: Executor, codeHash: string, purpose: LtiCodeRow['purpose']) {
  const rows = await db
    .select()
    .from(ltiCodes)
    .where(
      and(eq(ltiCodes.codeHash, codeHash), eq(ltiCodes.purpose, purpose), gt(ltiCodes.expiresAt, sql`now()`)),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function insertDeepLink(db: Executor, row: typeof ltiDeepLinks.$inferInsert): Promise<void> {
  await db.insert(ltiDeepLinks).values(row);
}

export async function findDeepLink(db: Executor, id: string): Promise<DeepLinkRow | null> {
  const rows = await db
    .select()
    .from(ltiDeepLinks)
    .where(and(eq(ltiDeepLinks.id, id), gt(ltiDeepLinks.expiresAt, sql`now()`)))
    .limit(1);
  return rows[0] ?? null;
}

export async function setDeepLinkContext(db: Executor, id: string, contextRowId: number): Promise<void> {
  await db.update(ltiDeepLinks).set({ contextRowId }).where(eq(ltiDeepLinks.id, id));
}

/** The deep-linking request, removed: it is answered once. */
export async function takeDeepLink(db: Executor, id: string, userId: number): Promise<DeepLinkRow | null> {
  const rows = await db
    .delete(ltiDeepLinks)
    .where(
      and(eq(ltiDeepLinks.id, id), eq(ltiDeepLinks.userId, userId), gt(ltiDeepLinks.expiresAt, sql`now()`)),
    )
    .returning();
  return rows[0] ?? null;
}
