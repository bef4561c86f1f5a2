import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { statementCache } from '../../db/prepared.ts';
import { courseEditors, courseStudents, courses } from '../../db/schema.ts';
import { forumCourseStats, forumReaderStats, forumReads, forumRecords } from '../../db/schema-forum.ts';

/* The forum's counts: the kept counters of a course and what one reader has read (docs/forum.md). */

const r = forumRecords;

const contextStatement = statementCache(
  () => 'forum_context',
  (db, _key: null, name) =>
    db
      .select({
        isEditor: sql<boolean>`exists (select 1 from ${courseEditors} as m where m.course_id = ${courses.id} and m.user_id = ${sql.placeholder('userId')}::int)`,
        isStudent: sql<boolean>`exists (select 1 from ${courseStudents} as m where m.course_id = ${courses.id} and m.user_id = ${sql.placeholder('userId')}::int)`,
        topics: sql<number>`coalesce(${forumCourseStats.topics}, 0)::int`,
        announcements: sql<number>`coalesce(${forumCourseStats.announcements}, 0)::int`,
        read: sql<number>`(coalesce(${forumReaderStats.reads}, 0) - (select count(*) from ${r} as w join ${forumReads} as x on x.record_id = w.id and x.user_id = ${sql.placeholder('userId')}::int where w.course_id = ${courses.id} and w.published_at is null))::int`,
      })
      .from(courses)
      .leftJoin(forumCourseStats, eq(forumCourseStats.courseId, courses.id))
      .leftJoin(
        forumReaderStats,
        and(
          eq(forumReaderStats.courseId, courses.id),
          eq(forumReaderStats.userId, sql.placeholder('userId')),
        ),
      )
      .where(eq(courses.id, sql.placeholder('courseId')))
      .prepare(name),
);

export interface ForumCounts {
  topics: number;
  announcements: number;
  read: number;
}

/** Unread topics: published topics less the ones the reader has read. */
export const unreadOf = (counts: ForumCounts) => Math.max(counts.topics - counts.read, 0);

export interface ForumContext {
  relation: { isEditor: boolean; isStudent: boolean };
  counts: ForumCounts;
}

/**
 * How the user stands to the course (null: no such course) with its published topics and
 * announcements (the kept counters) and how many of the published topics the user has read, in one
 * prepared statement: what every list page and the unread badge need. The read count is the user's
 * forum_reader_stats row (kept by trigger) less their reads of the few topics still waiting to be
 * published (forum_records_scheduled_idx); it costs the same however much the user has read.
 */
export async function findForumContext(
  db: Executor,
  courseId: number,
  userId: number,
): Promise<ForumContext | null> {
  const [row] = await contextStatement(db, null).execute({ courseId, userId });
  if (!row) return null;
  const { isEditor, isStudent, ...counts } = row;
  return { relation: { isEditor, isStudent }, counts };
}

/** Published topics (and announcements) of the course, from the counters kept with every change. */
export async function findCourseStats(
  db: Executor,
  courseId: number,
): Promise<{ topics: number; announcements: number }> {
  const [row] = await db
    .select({ topics: forumCourseStats.topics, announcements: forumCourseStats.announcements })
    .from(forumCourseStats)
    .where(eq(forumCourseStats.courseId, courseId))
    .limit(1);
  return row ?? { topics: 0, announcements: 0 };
}

/**
 * How many published topics of the course of one kind (announcements or discussions) the user has read:
 * the Unread tab of one kind (the badge and the plain tab use findForumContext).
 */
export async function countReadTopics(
  db: Executor,
  key: { userId: number; courseId: number; isAnnouncement: boolean },
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forumReads)
    .innerJoin(r, eq(r.id, forumReads.recordId))
    .where(
      and(
        eq(forumReads.userId, key.userId),
        eq(forumReads.courseId, key.courseId),
        isNull(r.parentId),
        isNotNull(r.publishedAt),
        eq(r.isAnnouncement, key.isAnnouncement),
      ),
    );
  return row?.n ?? 0;
}
