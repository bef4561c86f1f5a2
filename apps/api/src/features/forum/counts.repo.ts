import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { courseEditors, courseStudents, courses } from '../../db/schema.ts';
import { forumCourseStats, forumReaderStats, forumReads, forumRecords } from '../../db/schema-forum.ts';

/* The forum's counts: the kept counters of a course and what one reader has read (docs/forum.md). */

const r = forumRecords;

const course = sql.placeholder('courseId');
const viewer = sql.placeholder('viewerId');

/**
 * How the viewer stands to the course, its published topics and announcements (the kept counters) and
 * how many of them the viewer has read, as columns: subqueries of the placeholders `courseId` and
 * `viewerId` alone, which PostgreSQL runs once per statement (InitPlans) however many rows carry
 * them — so a list page carries its context without another statement. The read count is the
 * viewer's forum_reader_stats row (kept by trigger) less their reads of the few topics still waiting
 * to be published (forum_records_scheduled_idx); it costs the same however much they have read.
 */
export const forumContextColumns = {
  contextIsEditor: sql<boolean>`exists (select 1 from ${courseEditors} as m where m.course_id = ${course}::int and m.user_id = ${viewer}::int)`,
  contextIsStudent: sql<boolean>`exists (select 1 from ${courseStudents} as m where m.course_id = ${course}::int and m.user_id = ${viewer}::int)`,
  contextTopics: sql<number>`coalesce((select s.topics from ${forumCourseStats} as s where s.course_id = ${course}::int), 0)::int`,
  contextAnnouncements: sql<number>`coalesce((select s.announcements from ${forumCourseStats} as s where s.course_id = ${course}::int), 0)::int`,
  contextRead: sql<number>`(coalesce((select s.reads from ${forumReaderStats} as s where s.course_id = ${course}::int and s.user_id = ${viewer}::int), 0) - (select count(*) from ${r} as w join ${forumReads} as x on x.record_id = w.id and x.user_id = ${viewer}::int where w.course_id = ${course}::int and w.published_at is null))::int`,
};

export interface ForumContextRow {
  contextIsEditor: boolean;
  contextIsStudent: boolean;
  contextTopics: number;
  contextAnnouncements: number;
  contextRead: number;
}

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

export function toForumContext(row: ForumContextRow): ForumContext {
  return {
    relation: { isEditor: row.contextIsEditor, isStudent: row.contextIsStudent },
    counts: { topics: row.contextTopics, announcements: row.contextAnnouncements, read: row.contextRead },
  };
}

const contextStatement = statementCache(
  () => 'forum_context',
  (db, _key: null, name) =>
    prepareSelect(db, db.select(forumContextColumns).from(courses).where(eq(courses.id, course)), name),
);

/**
 * The forum context (forumContextColumns) on its own, one prepared statement; null: no such course.
 * List pages carry it in their own statement and ask here only when they come back empty.
 */
export async function findForumContext(
  db: Executor,
  courseId: number,
  viewerId: number,
): Promise<ForumContext | null> {
  const [row] = await contextStatement(db, null).execute({ courseId, viewerId });
  return row ? toForumContext(row) : null;
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
