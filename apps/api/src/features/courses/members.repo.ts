import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { MemberKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { courseEditors, courseStudents, users } from '../../db/schema.ts';

const TABLES = { editor: courseEditors, student: courseStudents } as const;

export interface MemberRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  addedAt: Date;
}

/** Up to `cap` members of one list, by family name, given name, then e-mail; `count` is the full number. */
export async function listMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  cap: number,
): Promise<{ count: number; rows: MemberRow[] }> {
  const table = TABLES[kind];
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      addedAt: table.createdAt,
      total: sql<number>`(count(*) over ())::int`.mapWith(Number),
    })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(eq(table.courseId, courseId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email), asc(users.id))
    .limit(cap);
  return { count: rows[0]?.total ?? 0, rows: rows.map(({ total: _total, ...row }) => row) };
}

/**
 * Of these user ids, those an editor may name: members (students or editors) of a course the editor
 * edits. Anyone else is treated as unknown, so a list cannot be used to discover who has an account.
 */
export async function listIdsKnownToEditor(
  db: Executor,
  editorId: number,
  userIds: number[],
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const taught = db
    .select({ courseId: courseEditors.courseId })
    .from(courseEditors)
    .where(eq(courseEditors.userId, editorId));
  const rows = await db
    .select({ userId: courseStudents.userId })
    .from(courseStudents)
    .where(and(inArray(courseStudents.courseId, taught), inArray(courseStudents.userId, userIds)))
    .union(
      db
        .select({ userId: courseEditors.userId })
        .from(courseEditors)
        .where(and(inArray(courseEditors.courseId, taught), inArray(courseEditors.userId, userIds))),
    );
  return rows.map((r) => r.userId);
}

/** Adds the users to the list; returns the ids that were not on it before (the others are left alone). */
export async function insertMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  userIds: number[],
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const table = TABLES[kind];
  const inserted = await db
    .insert(table)
    .values(userIds.map((userId) => ({ courseId, userId })))
    .onConflictDoNothing()
    .returning({ userId: table.userId });
  return inserted.map((r) => r.userId);
}

/** Removes the users from the list; returns how many were on it. */
export async function deleteMembers(
  db: Executor,
  kind: MemberKind,
  courseId: number,
  userIds: number[],
): Promise<number> {
  if (userIds.length === 0) return 0;
  const table = TABLES[kind];
  const deleted = await db
    .delete(table)
    .where(and(eq(table.courseId, courseId), inArray(table.userId, userIds)))
    .returning({ userId: table.userId });
  return deleted.length;
}
