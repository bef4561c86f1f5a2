import { and, count, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { dataExports, userErasures } from '../../db/schema-privacy.ts';

/* Data exports' rows (what they gather: export-read.repo.ts) and the erasures' audit entries. */

export type DataExportRow = typeof dataExports.$inferSelect;
export type ErasureRow = typeof userErasures.$inferSelect;

/** A new pending export; null when the person already has one pending or running. */
export async function insertExport(db: Executor, userId: number): Promise<DataExportRow | null> {
  const rows = await db.insert(dataExports).values({ userId }).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function listExports(db: Executor, userId: number, limit: number): Promise<DataExportRow[]> {
  return db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.id))
    .limit(limit);
}

export async function findExport(db: Executor, id: number): Promise<DataExportRow | null> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id)).limit(1);
  return row ?? null;
}

/**
 * Takes an export for one run: a pending one, or one whose run started before `staleBefore` (its
 * process died). The conditional update lets only one of two runs at once have it.
 */
export async function claimExport(
  db: Executor,
  id: number,
  staleBefore: Date,
): Promise<DataExportRow | null> {
  const [row] = await db
    .update(dataExports)
    .set({ status: 'running', startedAt: sql`now()`, attempts: sql`${dataExports.attempts} + 1` })
    .where(
      and(
        eq(dataExports.id, id),
        or(
          eq(dataExports.status, 'pending'),
          and(eq(dataExports.status, 'running'), lt(dataExports.startedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Where the running export's zip goes, recorded before it is stored: every zip in the store is then
 * named by a row, and one that is not is an orphan housekeeping may delete. False: the run lost it.
 */
export async function setExportKey(db: Executor, id: number, storageKey: string): Promise<boolean> {
  const rows = await db
    .update(dataExports)
    .set({ storageKey })
    .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running')))
    .returning({ id: dataExports.id });
  return rows.length > 0;
}

/** Every zip a row names (housekeeping deletes the others). */
export async function listExportKeys(db: Executor): Promise<Set<string>> {
  const rows = await db
    .select({ storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(isNotNull(dataExports.storageKey));
  return new Set(rows.flatMap((row) => (row.storageKey ? [row.storageKey] : [])));
}

/** The run holding the export finished: false when the export went meanwhile (its owner was erased). */
export async function markExportReady(
  tx: Executor,
  id: number,
  storageKey: string,
  size: number,
  lifetimeSeconds: number,
): Promise<boolean> {
  const rows = await tx
    .update(dataExports)
    .set({
      status: 'ready',
      storageKey,
      size,
      error: null,
      finishedAt: sql`now()`,
      expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})`,
    })
    .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running')))
    .returning({ id: dataExports.id });
  return rows.length > 0;
}

/** A run failed: back to pending for the next try, or `failed` for good after the last one. */
export async function markExportFailed(
  db: Executor,
  id: number,
  error: string,
  isFinal: boolean,
): Promise<void> {
  await db
    .update(dataExports)
    .set(
      isFinal
        ? { status: 'failed', storageKey: null, error: error.slice(0, 2000), finishedAt: sql`now()` }
        : { status: 'pending', storageKey: null, error: error.slice(0, 2000) },
    )
    .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running')));
}

const ExpiredKeys = z.object({ rows: z.array(z.object({ storage_key: z.string().nullable() })) });

/**
 * Ready exports whose time is up, turned `expired` (their zips are deleted after the commit):
 * returns their storage keys.
 */
export async function expireExports(tx: Executor, limit: number): Promise<string[]> {
  const result = await tx.execute(
    sql`with due as (
          select id, storage_key from data_exports
          where status = 'ready' and expires_at <= now()
          order by id limit ${limit} for update skip locked)
        update data_exports d set status = 'expired', storage_key = null
        from due where d.id = due.id
        returning due.storage_key`,
  );
  return ExpiredKeys.parse(result).rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []));
}

/** Exports whose job was lost: pending since before `pendingBefore`, or running since before `staleBefore`. */
export async function listStalledExports(
  db: Executor,
  pendingBefore: Date,
  staleBefore: Date,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(
      or(
        and(eq(dataExports.status, 'pending'), lt(dataExports.createdAt, pendingBefore)),
        and(eq(dataExports.status, 'running'), lt(dataExports.startedAt, staleBefore)),
      ),
    )
    .orderBy(dataExports.id)
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function findErasureOf(db: Executor, userId: number): Promise<ErasureRow | null> {
  const [row] = await db.select().from(userErasures).where(eq(userErasures.userId, userId)).limit(1);
  return row ?? null;
}

export async function insertErasure(
  tx: Executor,
  row: Omit<typeof userErasures.$inferInsert, 'id' | 'erasedAt'>,
): Promise<ErasureRow> {
  const [inserted] = await tx.insert(userErasures).values(row).returning();
  return inserted!;
}

export async function recordFilesFailed(
  db: Executor,
  id: number,
  failed: number,
): Promise<ErasureRow | null> {
  const [row] = await db
    .update(userErasures)
    .set({ filesFailed: failed })
    .where(eq(userErasures.id, id))
    .returning();
  return row ?? null;
}

export async function listErasures(
  db: Executor,
  limit: number,
  offset: number,
): Promise<{ count: number; rows: ErasureRow[] }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(userErasures)
      .orderBy(desc(userErasures.erasedAt), desc(userErasures.id))
      .limit(limit)
      .offset(offset),
    db.select({ count: count() }).from(userErasures),
  ]);
  return { count: total?.count ?? 0, rows };
}
