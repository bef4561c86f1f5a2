import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ltiToolKeys } from '../../db/schema-lti.ts';

export type ToolKeyRow = typeof ltiToolKeys.$inferSelect;

export async function insertToolKey(db: Executor, row: typeof ltiToolKeys.$inferInsert): Promise<void> {
  await db.insert(ltiToolKeys).values(row);
}

/** The keys still published, newest first. */
export async function listPublishedToolKeys(db: Executor): Promise<ToolKeyRow[]> {
  return db
    .select()
    .from(ltiToolKeys)
    .where(isNull(ltiToolKeys.retiredAt))
    .orderBy(desc(ltiToolKeys.id))
    .limit(10);
}

export async function retireToolKeysBefore(db: Executor, id: number): Promise<void> {
  await db
    .update(ltiToolKeys)
    .set({ retiredAt: new Date() })
    .where(and(lt(ltiToolKeys.id, id), isNull(ltiToolKeys.retiredAt)));
}

export async function findToolKeyByKid(db: Executor, kid: string): Promise<ToolKeyRow | null> {
  const rows = await db.select().from(ltiToolKeys).where(eq(ltiToolKeys.kid, kid)).limit(1);
  return rows[0] ?? null;
}
