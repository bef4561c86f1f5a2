import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { MemberKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { pendingMembers, userIdentities } from '../../db/schema-identity.ts';
import { courseEditors, courseStudents } from '../../db/schema.ts';

export interface PendingRow {
  id: number;
  institutionalId: string;
  addedAt: Date;
}

/** `lower(institutional_id)`: both tables index exactly this expression, so the lookups use the index. */
const lowered = (column: typeof pendingMembers.institutionalId | typeof userIdentities.institutionalId) =>
  sql<string>`lower(${column})`;

/** Up to `cap` pending entries of one list, by id as written; `count` is the full number. */
export async function listPendingMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  cap: number,
): Promise<{ count: number; rows: PendingRow[] }> {
  const rows = await db
    .select({
      id: pendingMembers.id,
      institutionalId: pendingMembers.institutionalId,
      addedAt: pendingMembers.createdAt,
      total: sql<number>`(count(*) over ())::int`.mapWith(Number),
    })
    .from(pendingMembers)
    .where(and(eq(pendingMembers.courseId, courseId), eq(pendingMembers.kind, kind)))
    .orderBy(asc(pendingMembers.institutionalId), asc(pendingMembers.id))
    .limit(cap);
  return { count: rows[0]?.total ?? 0, rows: rows.map(({ total: _total, ...row }) => row) };
}

/**
 * The accounts that signed in with each of these institutional ids (given lower-cased), keyed by the
 * lower-cased id. One account may have several identities with the same id (two providers): it counts once.
 */
export async function listUserIdsByInstitutionalIds(
  db: Executor,
  lowerIds: string[],
): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  if (lowerIds.length === 0) return found;
  const rows = await db
    .selectDistinct({ key: lowered(userIdentities.institutionalId), userId: userIdentities.userId })
    .from(userIdentities)
    .where(inArray(lowered(userIdentities.institutionalId), lowerIds))
    .orderBy(lowered(userIdentities.institutionalId), asc(userIdentities.userId));
  for (const { key, userId } of rows) found.set(key, [...(found.get(key) ?? []), userId]);
  return found;
}

/** Holds these ids on the list; an id already held (in whatever case) is left as it is. */
export async function insertPendingMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  institutionalIds: string[],
  addedBy: number,
): Promise<void> {
  if (institutionalIds.length === 0) return;
  await db
    .insert(pendingMembers)
    .values(institutionalIds.map((institutionalId) => ({ courseId, kind, institutionalId, addedBy })))
    .onConflictDoNothing();
}

/** Drops these pending entries of the list; returns how many were on it (other lists' ids are ignored). */
export async function deletePendingMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  ids: number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await db
    .delete(pendingMembers)
    .where(
      and(
        eq(pendingMembers.courseId, courseId),
        eq(pendingMembers.kind, kind),
        inArray(pendingMembers.id, ids),
      ),
    )
    .returning({ id: pendingMembers.id });
  return deleted.length;
}

/** Takes every pending entry for these ids (given lower-cased) off the lists, returning what they were. */
export async function takePendingMembers(
  db: Executor,
  lowerIds: string[],
): Promise<{ courseId: number; kind: MemberKind }[]> {
  if (lowerIds.length === 0) return [];
  return db
    .delete(pendingMembers)
    .where(inArray(lowered(pendingMembers.institutionalId), lowerIds))
    .returning({ courseId: pendingMembers.courseId, kind: pendingMembers.kind });
}

/** Puts one user on the list of each course; returns how many of those lists did not have them yet. */
export async function insertMemberships(
  db: Executor,
  kind: MemberKind,
  userId: number,
  courseIds: number[],
): Promise<number> {
  if (courseIds.length === 0) return 0;
  const table = kind === 'editor' ? courseEditors : courseStudents;
  const inserted = await db
    .insert(table)
    .values(courseIds.map((courseId) => ({ courseId, userId })))
    .onConflictDoNothing()
    .returning({ courseId: table.courseId });
  return inserted.length;
}
