import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assignmentFiles } from '../../db/schema-assignments.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';

export type AssignmentFileRow = typeof assignmentFiles.$inferSelect;
export type NewAssignmentFileRow = typeof assignmentFiles.$inferInsert;

const listStatement = statementCache(
  () => 'assignment_files_list',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select()
        .from(assignmentFiles)
        .where(eq(assignmentFiles.assignmentId, sql.placeholder('assignmentId')))
        .orderBy(asc(assignmentFiles.filename), asc(assignmentFiles.id)),
      name,
    ),
);

/** The attachments of an assignment, by name. */
export function listFiles(db: Executor, assignmentId: number): Promise<AssignmentFileRow[]> {
  return listStatement(db, null).execute({ assignmentId });
}

export async function listStorageKeys(db: Executor, assignmentId: number): Promise<string[]> {
  const rows = await db
    .select({ key: assignmentFiles.storageKey })
    .from(assignmentFiles)
    .where(eq(assignmentFiles.assignmentId, assignmentId));
  return rows.map((r) => r.key);
}

export async function insertFiles(db: Executor, rows: NewAssignmentFileRow[]): Promise<AssignmentFileRow[]> {
  if (rows.length === 0) return [];
  return db.insert(assignmentFiles).values(rows).returning();
}

/** Deletes one attachment of the assignment; the deleted row (for its storage key), or null. */
export async function deleteFile(
  db: Executor,
  assignmentId: number,
  id: number,
): Promise<AssignmentFileRow | null> {
  const [row] = await db
    .delete(assignmentFiles)
    .where(and(eq(assignmentFiles.assignmentId, assignmentId), eq(assignmentFiles.id, id)))
    .returning();
  return row ?? null;
}
