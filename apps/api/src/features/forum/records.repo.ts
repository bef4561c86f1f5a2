import { and, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseEditors, users } from '../../db/schema.ts';
import { forumCourseStats, forumReads, forumRecords, forumUpvotes } from '../../db/schema-forum.ts';

/* Writes and single-record reads of forum records, their counters, read state and upvotes. */

/** Every column except the search vector (large, and never sent anywhere). */
export const recordColumns = {
  id: forumRecords.id,
  courseId: forumRecords.courseId,
  parentId: forumRecords.parentId,
  authorId: forumRecords.authorId,
  title: forumRecords.title,
  content: forumRecords.content,
  isAnnouncement: forumRecords.isAnnouncement,
  pinned: forumRecords.pinned,
  scheduledAt: forumRecords.scheduledAt,
  publishedAt: forumRecords.publishedAt,
  upvotes: forumRecords.upvotes,
  commentCount: forumRecords.commentCount,
  createdAt: forumRecords.createdAt,
  updatedAt: forumRecords.updatedAt,
  updatedBy: forumRecords.updatedBy,
  lastActivityAt: forumRecords.lastActivityAt,
};
export type RecordRow = Omit<typeof forumRecords.$inferSelect, 'searchVector'>;
export type RecordInsert = Omit<typeof forumRecords.$inferInsert, 'id' | 'searchVector'> & {
  searchVector: string;
};
export type RecordChanges = Partial<
  Pick<
    typeof forumRecords.$inferInsert,
    | 'title'
    | 'content'
    | 'pinned'
    | 'isAnnouncement'
    | 'scheduledAt'
    | 'publishedAt'
    | 'createdAt'
    | 'lastActivityAt'
    | 'updatedAt'
    | 'updatedBy'
  > & { searchVector: string }
>;

/** The vector literal goes in as text and is cast: ::tsvector parses it without normalising again. */
const vector = (literal: string) => sql`${literal}::tsvector`;

export async function findRecord(db: Executor, id: number): Promise<RecordRow | null> {
  const [row] = await db.select(recordColumns).from(forumRecords).where(eq(forumRecords.id, id)).limit(1);
  return row ?? null;
}

export async function insertRecord(tx: Executor, fields: RecordInsert): Promise<RecordRow> {
  const [row] = await tx
    .insert(forumRecords)
    .values({ ...fields, searchVector: vector(fields.searchVector) })
    .returning(recordColumns);
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateRecord(tx: Executor, id: number, changes: RecordChanges): Promise<RecordRow> {
  const { searchVector, ...rest } = changes;
  const [row] = await tx
    .update(forumRecords)
    .set({ ...rest, ...(searchVector === undefined ? {} : { searchVector: vector(searchVector) }) })
    .where(eq(forumRecords.id, id))
    .returning(recordColumns);
  if (!row) throw new Error(`forum record ${id} vanished inside its transaction`);
  return row;
}

/** Locks the record for the rest of the transaction (edits and conversions of one post serialise). */
export async function lockRecord(tx: Executor, id: number): Promise<RecordRow | null> {
  const [row] = await tx
    .select(recordColumns)
    .from(forumRecords)
    .where(eq(forumRecords.id, id))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function deleteRecord(tx: Executor, id: number): Promise<RecordRow | null> {
  const [row] = await tx.delete(forumRecords).where(eq(forumRecords.id, id)).returning(recordColumns);
  return row ?? null;
}

/** Adds to the course's published-topic counters (negative to subtract). */
export async function bumpStats(
  tx: Executor,
  courseId: number,
  delta: { topics: number; announcements: number },
): Promise<void> {
  if (delta.topics === 0 && delta.announcements === 0) return;
  await tx
    .insert(forumCourseStats)
    .values({ courseId, topics: delta.topics, announcements: delta.announcements })
    .onConflictDoUpdate({
      target: forumCourseStats.courseId,
      set: {
        topics: sql`${forumCourseStats.topics} + ${delta.topics}::int`,
        announcements: sql`${forumCourseStats.announcements} + ${delta.announcements}::int`,
      },
    });
}

/** A comment was added (+1, also the topic's latest activity) or removed (−1). */
export async function bumpCommentCount(
  tx: Executor,
  topicId: number,
  delta: 1 | -1,
  at: Date | null,
): Promise<void> {
  await tx
    .update(forumRecords)
    .set({
      commentCount: sql`greatest(${forumRecords.commentCount} + ${delta}::int, 0)`,
      ...(at ? { lastActivityAt: at } : {}),
    })
    .where(eq(forumRecords.id, topicId));
}

export async function markRead(
  db: Executor,
  key: { userId: number; recordId: number; courseId: number },
): Promise<void> {
  await db.insert(forumReads).values(key).onConflictDoNothing();
}

export async function markUnread(db: Executor, key: { userId: number; recordId: number }): Promise<void> {
  await db
    .delete(forumReads)
    .where(and(eq(forumReads.userId, key.userId), eq(forumReads.recordId, key.recordId)));
}

/** Adds the upvote once; answers the record's count after. */
export async function addUpvote(db: Executor, recordId: number, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(forumUpvotes)
      .values({ recordId, userId })
      .onConflictDoNothing()
      .returning({ recordId: forumUpvotes.recordId });
    return setUpvoteCount(tx, recordId, added.length);
  });
}

export async function removeUpvote(db: Executor, recordId: number, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(forumUpvotes)
      .where(and(eq(forumUpvotes.recordId, recordId), eq(forumUpvotes.userId, userId)))
      .returning({ recordId: forumUpvotes.recordId });
    return setUpvoteCount(tx, recordId, -removed.length);
  });
}

async function setUpvoteCount(tx: Executor, recordId: number, delta: number): Promise<number> {
  const [row] = await tx
    .update(forumRecords)
    .set({ upvotes: sql`greatest(${forumRecords.upvotes} + ${delta}::int, 0)` })
    .where(eq(forumRecords.id, recordId))
    .returning({ upvotes: forumRecords.upvotes });
  return row?.upvotes ?? 0;
}

/** A user as a post shows them: the name parts and whether they edit the record's course. */
export interface AuthorRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  isStaff: boolean;
  isEditor: boolean;
}

const authorColumns = (courseId: number) => ({
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  isStaff: users.isStaff,
  // Written with aliases: drizzle leaves columns of a select list unqualified.
  isEditor: sql<boolean>`exists (select 1 from ${courseEditors} as e where e.course_id = ${courseId}::int and e.user_id = ${users}.${sql.identifier('id')})`,
});

/** Who upvoted the record, newest first. */
export async function listUpvoters(
  db: Executor,
  record: { id: number; courseId: number },
  limit: number,
): Promise<AuthorRow[]> {
  return db
    .select(authorColumns(record.courseId))
    .from(forumUpvotes)
    .innerJoin(users, eq(users.id, forumUpvotes.userId))
    .where(eq(forumUpvotes.recordId, record.id))
    .orderBy(desc(forumUpvotes.createdAt), desc(forumUpvotes.userId))
    .limit(limit);
}

export async function countUpvoters(db: Executor, recordId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forumUpvotes)
    .where(eq(forumUpvotes.recordId, recordId));
  return row?.n ?? 0;
}

export async function findDisplayLanguage(db: Executor, userId: number): Promise<string | null> {
  const [row] = await db.select({ lang: users.displayLang }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.lang ?? null;
}

/**
 * Publishes every scheduled announcement whose time has come, with the counters, in one transaction.
 * The UPDATE's `published_at IS NULL` is re-checked on the locked row, so when the job and the
 * finalize call run at once each row is published by exactly one of them (docs/forum.md).
 */
type Published = {
  id: number;
  courseId: number;
  isAnnouncement: boolean;
  title: string;
  authorId: number | null;
};

/** `then` runs in the same transaction on what went out (the announcements' notifications). */
export async function publishDue(
  db: Executor,
  then: (tx: Executor, published: Published[]) => Promise<void> = async () => {},
): Promise<Published[]> {
  return db.transaction(async (tx) => {
    const published = await tx
      .update(forumRecords)
      .set({
        publishedAt: sql`now()`,
        // It appears as new when it goes out, at the top of the list (the list sorts by creation).
        createdAt: sql`now()`,
        lastActivityAt: sql`now()`,
      })
      .where(
        and(
          isNull(forumRecords.publishedAt),
          isNotNull(forumRecords.scheduledAt),
          lte(forumRecords.scheduledAt, sql`now()`),
        ),
      )
      .returning({
        id: forumRecords.id,
        courseId: forumRecords.courseId,
        isAnnouncement: forumRecords.isAnnouncement,
        title: forumRecords.title,
        authorId: forumRecords.authorId,
      });
    await then(tx, published);
    const perCourse = new Map<number, { topics: number; announcements: number }>();
    for (const row of published) {
      const stats = perCourse.get(row.courseId) ?? { topics: 0, announcements: 0 };
      stats.topics += 1;
      if (row.isAnnouncement) stats.announcements += 1;
      perCourse.set(row.courseId, stats);
    }
    for (const [courseId, delta] of perCourse) await bumpStats(tx, courseId, delta);
    return published;
  });
}
