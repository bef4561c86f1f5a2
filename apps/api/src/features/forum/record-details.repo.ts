import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { courseEditors, users } from '../../db/schema.ts';
import { forumFiles, forumReads, forumRecords, forumUpvotes } from '../../db/schema-forum.ts';
import type { ForumFileRow } from './files.repo.ts';
import { recordColumns, type RecordRow } from './records.repo.ts';

/*
 * The rows of forum records with what their reader needs — author, badge, the reader's flags and the
 * attachments — in one prepared statement: by ids here, and under a list page in lists.repo.ts.
 */

const r = forumRecords;
/**
 * A column of the outer forum_records row inside a subquery of a select list: drizzle writes columns
 * there without their table, which a subquery would resolve against its own table first.
 */
const outer = (name: string) => sql`${r}.${sql.identifier(name)}`;

/** An attachment as the details statement returns it (json: the time in epoch milliseconds). */
interface FileJson extends Omit<ForumFileRow, 'createdAt'> {
  createdAt: number;
}

/** A record with what its reader needs: the author's name and badge, the reader's flags, the files. */
export interface RecordDetail extends RecordRow {
  authorFirstName: string;
  authorLastName: string;
  authorEmail: string;
  authorIsStaff: boolean;
  authorIsEditor: boolean;
  upvoted: boolean;
  isRead: boolean;
  attachments: ForumFileRow[];
}

/**
 * The select list of a record's details: forum_records joined to its author (users); `viewerId` is a
 * placeholder. The attachments come as one json array per row, oldest first, so a page of records
 * costs one statement whatever they carry.
 */
export const recordDetailColumns = {
  ...recordColumns,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
  authorIsStaff: users.isStaff,
  authorIsEditor: sql<boolean>`exists (select 1 from ${courseEditors} as e where e.course_id = ${outer('course_id')} and e.user_id = ${outer('author_id')})`,
  upvoted: sql<boolean>`exists (select 1 from ${forumUpvotes} as v where v.record_id = ${outer('id')} and v.user_id = ${sql.placeholder('viewerId')}::int)`,
  isRead: sql<boolean>`exists (select 1 from ${forumReads} as x where x.record_id = ${outer('id')} and x.user_id = ${sql.placeholder('viewerId')}::int)`,
  attachments: sql<FileJson[] | null>`(select json_agg(json_build_object(
      'id', f.id, 'courseId', f.course_id, 'recordId', f.record_id, 'uploadedBy', f.uploaded_by,
      'storageKey', f.storage_key, 'filename', f.filename, 'size', f.size, 'contentType', f.content_type,
      'createdAt', (extract(epoch from f.created_at) * 1000)::float8
    ) order by f.created_at, f.id) from ${forumFiles} as f where f.record_id = ${outer('id')})`,
};

type DetailSelection = Omit<RecordDetail, 'attachments'> & { attachments: FileJson[] | null };

/** The row of the details statement with its attachments as file rows. */
export function toRecordDetail(row: DetailSelection): RecordDetail {
  return {
    ...row,
    attachments: (row.attachments ?? []).map((file) => ({ ...file, createdAt: new Date(file.createdAt) })),
  };
}

const detailsStatement = statementCache(
  () => 'forum_record_details',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select(recordDetailColumns)
        .from(r)
        .innerJoin(users, eq(users.id, r.authorId))
        .where(inIntArray(r.id, sql.placeholder('ids'))),
      name,
    ),
);

/** The rows of the given ids, in the order given (ids not found are left out). */
export async function listRecordDetails(
  db: Executor,
  ids: number[],
  viewerId: number,
): Promise<RecordDetail[]> {
  if (ids.length === 0) return [];
  const rows = await detailsStatement(db, null).execute({ ids, viewerId });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toRecordDetail(row)] : [];
  });
}
