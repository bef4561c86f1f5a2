import { and, asc, desc, eq, getTableColumns, isNull, or, sql } from 'drizzle-orm';
import type { Notebook } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';
import { kernelHosts } from '../../db/schema-cluster.ts';
import { workbookConfigs, workbookNotebooks, workbookSessions } from '../../db/schema-workbooks.ts';
import { hostIsAlive } from './kernel-hosts.repo.ts';

export type ConfigRow = typeof workbookConfigs.$inferSelect;
export type NewConfigRow = typeof workbookConfigs.$inferInsert;
export type NotebookRow = typeof workbookNotebooks.$inferSelect;
export type SessionRow = typeof workbookSessions.$inferSelect;
/** A session with its kernel's owner: whether that host is alive, and where it is reached. */
export type SessionView = SessionRow & { ownerAlive: boolean; ownerUrl: string | null };

/* ─── Configurations ────────────────────────────────────────────────────────────────────────── */

export async function listConfigs(db: Executor, courseId: number, limit: number): Promise<ConfigRow[]> {
  return db
    .select()
    .from(workbookConfigs)
    .where(eq(workbookConfigs.courseId, courseId))
    .orderBy(asc(workbookConfigs.id))
    .limit(limit);
}

export async function findConfig(db: Executor, id: number): Promise<ConfigRow | null> {
  const [row] = await db.select().from(workbookConfigs).where(eq(workbookConfigs.id, id)).limit(1);
  return row ?? null;
}

export async function insertConfig(db: Executor, row: NewConfigRow): Promise<ConfigRow> {
  const [inserted] = await db.insert(workbookConfigs).values(row).returning();
  return inserted!;
}

export async function updateConfig(
  db: Executor,
  id: number,
  fields: Partial<Omit<NewConfigRow, 'id' | 'courseId'>>,
): Promise<ConfigRow | null> {
  const [row] = await db
    .update(workbookConfigs)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(workbookConfigs.id, id))
    .returning();
  return row ?? null;
}

export async function deleteConfig(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .delete(workbookConfigs)
    .where(eq(workbookConfigs.id, id))
    .returning({ id: workbookConfigs.id });
  return rows.length > 0;
}

/* ─── Notebooks ─────────────────────────────────────────────────────────────────────────────── */

export async function findNotebook(db: Executor, id: number): Promise<NotebookRow | null> {
  const [row] = await db.select().from(workbookNotebooks).where(eq(workbookNotebooks.id, id)).limit(1);
  return row ?? null;
}

/** The user's notebook of the configuration, made from its starter the first time. */
export async function notebookFor(db: Executor, userId: number, config: ConfigRow): Promise<NotebookRow> {
  const [inserted] = await db
    .insert(workbookNotebooks)
    .values({
      userId,
      courseId: config.courseId,
      configId: config.id,
      name: config.name,
      content: config.starter,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(workbookNotebooks)
    .where(and(eq(workbookNotebooks.userId, userId), eq(workbookNotebooks.configId, config.id)))
    .limit(1);
  return row!;
}

/** Saves over `version`; null when the notebook changed since (or is gone). */
export async function saveNotebook(
  db: Executor,
  id: number,
  version: number,
  content: Notebook,
): Promise<NotebookRow | null> {
  const [row] = await db
    .update(workbookNotebooks)
    .set({ content, version: sql`${workbookNotebooks.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(workbookNotebooks.id, id), eq(workbookNotebooks.version, version)))
    .returning();
  return row ?? null;
}

/* ─── Sessions ──────────────────────────────────────────────────────────────────────────────── */

/** Live sessions past their time become `expired` (the job, and every read, do this). */
export async function expireDue(db: Executor): Promise<SessionRow[]> {
  return db
    .update(workbookSessions)
    .set({ status: 'expired', endedAt: sql`${workbookSessions.expiresAt}` })
    .where(and(eq(workbookSessions.status, 'live'), sql`${workbookSessions.expiresAt} <= now()`))
    .returning();
}

const sessionView = {
  ...getTableColumns(workbookSessions),
  ownerAlive: sql<boolean>`coalesce(${hostIsAlive}, false)`.mapWith(Boolean),
  ownerUrl: kernelHosts.url,
};

export async function findSession(db: Executor, id: number): Promise<SessionView | null> {
  const [row] = await db
    .select(sessionView)
    .from(workbookSessions)
    .leftJoin(kernelHosts, eq(kernelHosts.id, workbookSessions.kernelHost))
    .where(eq(workbookSessions.id, id))
    .limit(1);
  return row ?? null;
}

export async function liveSessionOf(
  db: Executor,
  userId: number,
  courseId: number,
): Promise<SessionRow | null> {
  const [row] = await db
    .select()
    .from(workbookSessions)
    .where(
      and(
        eq(workbookSessions.userId, userId),
        eq(workbookSessions.courseId, courseId),
        eq(workbookSessions.status, 'live'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Held until commit: one person's session starts are counted one after the other. */
export async function lockSessionsOf(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`workbook-sessions:${userId}`}))`);
}

/** The user's live sessions in every course (each has a kernel somewhere). */
export async function countLiveSessionsOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(workbookSessions)
    .where(
      and(
        eq(workbookSessions.userId, userId),
        eq(workbookSessions.status, 'live'),
        sql`${workbookSessions.expiresAt} > now()`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * Hands the live session's kernel from host `from` to host `to` (null: none), only if `from` still
 * holds it: of two instances moving it at once, one wins and the other sees the new owner.
 */
export async function moveKernel(
  db: Executor,
  id: number,
  from: string | null,
  to: string | null,
): Promise<boolean> {
  const rows = await db
    .update(workbookSessions)
    .set({ kernelHost: to })
    .where(
      and(
        eq(workbookSessions.id, id),
        eq(workbookSessions.status, 'live'),
        from === null ? isNull(workbookSessions.kernelHost) : eq(workbookSessions.kernelHost, from),
      ),
    )
    .returning({ id: workbookSessions.id });
  return rows.length > 0;
}

/** Null when the user already has a live session in the course (the partial unique index). */
export async function insertSession(
  db: Executor,
  row: typeof workbookSessions.$inferInsert,
): Promise<SessionRow | null> {
  const [inserted] = await db.insert(workbookSessions).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function endSession(db: Executor, id: number): Promise<SessionRow | null> {
  const [row] = await db
    .update(workbookSessions)
    .set({ status: 'ended', endedAt: sql`now()` })
    .where(and(eq(workbookSessions.id, id), eq(workbookSessions.status, 'live')))
    .returning();
  return row ?? null;
}

/** Adds minutes within the maximum; null when the session is not live or the total would pass it. */
export async function extendSession(db: Executor, id: number, minutes: number): Promise<SessionRow | null> {
  const [row] = await db
    .update(workbookSessions)
    .set({
      expiresAt: sql`${workbookSessions.expiresAt} + make_interval(mins => ${minutes}::int)`,
      extendedMinutes: sql`${workbookSessions.extendedMinutes} + ${minutes}::int`,
    })
    .where(
      and(
        eq(workbookSessions.id, id),
        eq(workbookSessions.status, 'live'),
        sql`${workbookSessions.expiresAt} > now()`,
        sql`${workbookSessions.extendedMinutes} + ${minutes}::int <= ${workbookSessions.maxExtensionMinutes}`,
      ),
    )
    .returning();
  return row ?? null;
}

/** The user's sessions in the course, live first then the latest; with `allLive`, everyone's live ones too. */
export async function sessionsInCourse(
  db: Executor,
  courseId: number,
  userId: number,
  allLive: boolean,
  limit: number,
): Promise<SessionView[]> {
  return db
    .select(sessionView)
    .from(workbookSessions)
    .leftJoin(kernelHosts, eq(kernelHosts.id, workbookSessions.kernelHost))
    .where(
      and(
        eq(workbookSessions.courseId, courseId),
        allLive
          ? or(eq(workbookSessions.userId, userId), eq(workbookSessions.status, 'live'))
          : eq(workbookSessions.userId, userId),
      ),
    )
    .orderBy(sql`${workbookSessions.status} = 'live' desc`, desc(workbookSessions.id))
    .limit(limit);
}

/** Those of `ids` that are live, in time, and whose kernel belongs to host `hostId`. */
export async function liveOwnedAmong(db: Executor, ids: number[], hostId: string): Promise<Set<number>> {
  const rows = await db
    .select({ id: workbookSessions.id })
    .from(workbookSessions)
    .where(
      and(
        inIntArray(workbookSessions.id, ids),
        eq(workbookSessions.status, 'live'),
        eq(workbookSessions.kernelHost, hostId),
        sql`${workbookSessions.expiresAt} > now()`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}
