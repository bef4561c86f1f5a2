import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';
import { statementCache } from '../../db/prepared.ts';
import { courseEditors, users } from '../../db/schema.ts';
import { forumReads, forumRecords, forumUpvotes } from '../../db/schema-forum.ts';
import { recordColumns, type RecordRow } from './records.repo.ts';

/* The rows of a page of forum records, with what their reader needs (one prepared statement). */

const r = forumRecords;
/**
 * A column of the outer forum_records row inside a subquery of a select list: drizzle writes columns
 * there without their table, which a subquery would resolve against its own table first.
 */
const outer = (name: string) => sql`${r}.${sql.identifier(name)}`;
/** A record with what its reader needs: the author's name and badge, and the reader's flags. */
export interface RecordDetail extends RecordRow {
  authorFirstName: string;
  authorLastName: string;
  authorEmail: string;
  authorIsStaff: boolean;
  authorIsEditor: boolean;
  upvoted: boolean;
  isRead: boolean;
}

const detailsStatement = statementCache(
  () => 'forum_record_details',
  (db, _key: null, name) =>
    db
      .select({
        ...recordColumns,
        authorFirstName: users.firstName,
        authorLastName: users.lastName,
        authorEmail: users.email,
        authorIsStaff: users.isStaff,
        authorIsEditor: sql<boolean>`exists (select 1 from ${courseEditors} as e where e.course_id = ${outer('course_id')} and e.user_id = ${outer('author_id')})`,
        upvoted: sql<boolean>`exists (select 1 from ${forumUpvotes} as v where v.record_id = ${outer('id')} and v.user_id = ${sql.placeholder('viewerId')}::int)`,
        isRead: sql<boolean>`exists (select 1 from ${forumReads} as x where x.record_id = ${outer('id')} and x.user_id = ${sql.placeholder('viewerId')}::int)`,
      })
      .from(r)
      .innerJoin(users, eq(users.id, r.authorId))
      .where(inIntArray(r.id, sql.placeholder('ids')))
      .prepare(name),
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
  return ids.flatMap((id) => byId.get(id) ?? []);
}
