import { and, asc, count, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { FORUM_MESSAGES, MAX_FORUM_FILES_PER_POST, type ForumFile } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { forumFiles, forumRecords } from '../../db/schema-forum.ts';
import { badRequest } from '../../lib/errors.ts';
import { inIntArray } from '../../db/int-array.ts';

export type ForumFileRow = typeof forumFiles.$inferSelect;
export type ForumFileFields = Pick<
  typeof forumFiles.$inferInsert,
  'courseId' | 'recordId' | 'uploadedBy' | 'storageKey' | 'filename' | 'size' | 'contentType'
>;

/**
 * Types a page may show inline in an `<img>`. SVG is left out on purpose: it can carry script, so it
 * is only ever offered as a download.
 */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const isInlineImage = (contentType: string) => INLINE_IMAGE_TYPES.has(contentType);

export function toForumFile(row: ForumFileRow): ForumFile {
  return {
    id: row.id,
    course_id: row.courseId,
    record_id: row.recordId,
    filename: row.filename,
    size: row.size,
    content_type: row.contentType,
    is_image: isInlineImage(row.contentType),
    uploaded_by: row.uploadedBy,
    created_at: row.createdAt.toISOString(),
  };
}

/** The attachments of each record (records without files are absent from the map), oldest first. */
/** Prepared: every list page asks it. */
const filesOfRecordsStatement = statementCache(
  () => 'forum_files_of_records',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select()
        .from(forumFiles)
        .where(inIntArray(forumFiles.recordId, sql.placeholder('ids')))
        .orderBy(asc(forumFiles.createdAt), asc(forumFiles.id)),
      name,
    ),
);

export async function listFilesOfRecords(
  db: Executor,
  recordIds: number[],
): Promise<Map<number, ForumFile[]>> {
  const byRecord = new Map<number, ForumFile[]>();
  if (recordIds.length === 0) return byRecord;
  const rows = await filesOfRecordsStatement(db, null).execute({ ids: [...new Set(recordIds)] });
  for (const row of rows) {
    if (row.recordId === null) continue;
    const list = byRecord.get(row.recordId) ?? [];
    list.push(toForumFile(row));
    byRecord.set(row.recordId, list);
  }
  return byRecord;
}

/**
 * Makes `fileIds` the record's whole attachment list, in the caller's transaction: claims the caller's
 * tray files of the course, keeps the record's own, and deletes the rows of the record's files no longer
 * listed. Their storage keys are returned so the caller deletes the objects after commit (a rollback
 * must never leave a row pointing at deleted bytes).
 */
export async function attachFiles(
  tx: Executor,
  input: { courseId: number; recordId: number; fileIds: number[]; userId: number },
): Promise<{ removedKeys: string[] }> {
  const ids = [...new Set(input.fileIds)];
  if (ids.length > MAX_FORUM_FILES_PER_POST) {
    throw badRequest(
      FORUM_MESSAGES.uploadLimit,
      { attachments: [FORUM_MESSAGES.uploadLimit] },
      'too_many_files',
    );
  }
  if (ids.length > 0) {
    // One UPDATE claims only rows still in the caller's tray, so two posts racing for the same file
    // cannot both take it: the loser finds it missing below and answers 400.
    await tx
      .update(forumFiles)
      .set({ recordId: input.recordId })
      .where(
        and(
          inArray(forumFiles.id, ids),
          isNull(forumFiles.recordId),
          eq(forumFiles.uploadedBy, input.userId),
          eq(forumFiles.courseId, input.courseId),
        ),
      );
    const held = await tx
      .select({ id: forumFiles.id })
      .from(forumFiles)
      .where(and(inArray(forumFiles.id, ids), eq(forumFiles.recordId, input.recordId)));
    const heldIds = new Set(held.map((row) => row.id));
    const unknown = ids.filter((id) => !heldIds.has(id));
    if (unknown.length > 0) {
      throw badRequest(
        `Unknown attachment: file ${unknown.join(', ')} was not uploaded by you to this course or is attached elsewhere.`,
        { attachments: unknown.map((id) => `File ${id} cannot be attached to this post.`) },
        'invalid_attachment',
      );
    }
  }
  const removed = await tx
    .delete(forumFiles)
    .where(
      and(
        eq(forumFiles.recordId, input.recordId),
        ids.length > 0 ? notInArray(forumFiles.id, ids) : undefined,
      ),
    )
    .returning({ storageKey: forumFiles.storageKey });
  return { removedKeys: removed.map((row) => row.storageKey) };
}

/** Storage keys of the record's files and of its comments' files (what deleting the record orphans). */
export async function listStorageKeysOfRecord(db: Executor, recordId: number): Promise<string[]> {
  const rows = await db
    .select({ storageKey: forumFiles.storageKey })
    .from(forumFiles)
    .where(
      or(
        eq(forumFiles.recordId, recordId),
        inArray(
          forumFiles.recordId,
          db.select({ id: forumRecords.id }).from(forumRecords).where(eq(forumRecords.parentId, recordId)),
        ),
      ),
    );
  return rows.map((row) => row.storageKey);
}

/* ─── Uploads, deletes, housekeeping (files.service.ts) ─────────────────────────────────────── */

export async function findForumFile(db: Executor, id: number): Promise<ForumFileRow | null> {
  const [row] = await db.select().from(forumFiles).where(eq(forumFiles.id, id)).limit(1);
  return row ?? null;
}

/** Files waiting in the user's tray for this course. */
export async function countTrayFiles(db: Executor, userId: number, courseId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(forumFiles)
    .where(
      and(eq(forumFiles.uploadedBy, userId), eq(forumFiles.courseId, courseId), isNull(forumFiles.recordId)),
    );
  return row?.n ?? 0;
}

export async function countFilesOfRecord(db: Executor, recordId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(forumFiles).where(eq(forumFiles.recordId, recordId));
  return row?.n ?? 0;
}

/**
 * Serialises uploads of one user into one course (tray) or onto one record, so two requests at once
 * cannot both pass the count check. A transaction-scoped advisory lock: released at commit.
 */
export async function lockUploadTarget(tx: Executor, target: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`forum-files:${target}`}))`);
}

export async function insertForumFiles(tx: Executor, rows: ForumFileFields[]): Promise<ForumFileRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(forumFiles).values(rows).returning();
}

export async function deleteForumFile(db: Executor, id: number): Promise<string | null> {
  const [row] = await db
    .delete(forumFiles)
    .where(eq(forumFiles.id, id))
    .returning({ storageKey: forumFiles.storageKey });
  return row?.storageKey ?? null;
}

/** Deletes tray files uploaded before `before` (never attached); returns their storage keys. */
export async function deleteStaleTrayFiles(db: Executor, before: Date, limit: number): Promise<string[]> {
  const stale = db
    .select({ id: forumFiles.id })
    .from(forumFiles)
    .where(and(isNull(forumFiles.recordId), lt(forumFiles.createdAt, before)))
    .limit(limit);
  const rows = await db
    .delete(forumFiles)
    .where(and(inArray(forumFiles.id, stale), isNull(forumFiles.recordId)))
    .returning({ storageKey: forumFiles.storageKey });
  return rows.map((row) => row.storageKey);
}
