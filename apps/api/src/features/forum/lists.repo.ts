import { and, asc, desc, eq, isNotNull, isNull, not, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ForumOrdering } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { statementCache } from '../../db/prepared.ts';
import { courses } from '../../db/schema.ts';
import { forumCourseStats, forumReads, forumRecords } from '../../db/schema-forum.ts';

/*
 * The forum's lists. A page is two steps: the ids of the page (one query walking
 * forum_records_list_idx / forum_records_announcements_idx with LIMIT, or a keyset boundary), then
 * the rows of just those ids with author, upvoted and read flags (one query, record-details.repo.ts). docs/forum.md, "Lists".
 */

/** Where a keyset page starts: after the row with these sort keys (ordering -created_at). */
export interface Keyset {
  pinned: boolean;
  /** created_at in microseconds since the epoch (a JS Date would lose the microseconds). */
  createdMicros: string;
  id: number;
}

export interface TopicFilter {
  courseId: number;
  viewerId: number;
  isAnnouncement?: boolean;
  pinnedOnly?: boolean;
  unreadOnly?: boolean;
  authorId?: number;
  updatedBy?: number;
  /** A tsquery literal from forumSearchQuery. */
  search?: string;
}

const r = forumRecords;
const createdMicros = sql<string>`(extract(epoch from ${r.createdAt}) * 1000000)::bigint::text`;
const fromMicros = (micros: unknown) =>
  sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;

/** Which conditions a page query has: each combination is its own prepared statement. */
interface TopicShape {
  isAnnouncement?: boolean;
  pinnedOnly?: boolean;
  unreadOnly?: boolean;
  author: boolean;
  updatedBy: boolean;
  search: boolean;
}

function shapeOf(filter: TopicFilter): TopicShape {
  return {
    isAnnouncement: filter.isAnnouncement,
    pinnedOnly: filter.pinnedOnly,
    unreadOnly: filter.unreadOnly,
    author: filter.authorId !== undefined,
    updatedBy: filter.updatedBy !== undefined,
    search: filter.search !== undefined,
  };
}

const shapeName = (shape: TopicShape) =>
  [
    shape.isAnnouncement === undefined ? 'a' : shape.isAnnouncement ? 't' : 'f',
    shape.pinnedOnly ? 'p' : '',
    shape.unreadOnly ? 'u' : '',
    shape.author ? 'w' : '',
    shape.updatedBy ? 'b' : '',
    shape.search ? 's' : '',
  ].join('');

/**
 * The filter as SQL with placeholders (courseId, viewerId, authorId, updatedBy, search); the leading
 * conditions match the partial indexes' predicates exactly.
 */
function topicConditions(shape: TopicShape): SQL | undefined {
  return and(
    eq(r.courseId, sql.placeholder('courseId')),
    isNull(r.parentId),
    isNotNull(r.publishedAt),
    shape.isAnnouncement === true ? eq(r.isAnnouncement, true) : undefined,
    shape.isAnnouncement === false ? not(r.isAnnouncement) : undefined,
    shape.pinnedOnly ? eq(r.pinned, true) : undefined,
    shape.author ? eq(r.authorId, sql.placeholder('authorId')) : undefined,
    shape.updatedBy ? eq(r.updatedBy, sql.placeholder('updatedBy')) : undefined,
    shape.unreadOnly
      ? sql`not exists (select 1 from ${forumReads} where ${forumReads.recordId} = ${r.id} and ${forumReads.userId} = ${sql.placeholder('viewerId')}::int)`
      : undefined,
    shape.search ? sql`${r.searchVector} @@ ${sql.placeholder('search')}::tsquery` : undefined,
  );
}

function topicParams(filter: TopicFilter) {
  return {
    courseId: filter.courseId,
    viewerId: filter.viewerId,
    authorId: filter.authorId ?? 0,
    updatedBy: filter.updatedBy ?? 0,
    search: filter.search ?? '',
  };
}

/**
 * drizzle's index builder made the list indexes `DESC NULLS LAST`, while a plain `ORDER BY … DESC`
 * means NULLS FIRST: the planner would not match them (NOT NULL columns notwithstanding) and would
 * sort the whole course. So the order says NULLS LAST too.
 */
const descending = (column: AnyColumn) => sql`${column} desc nulls last`;

function topicOrder(ordering: ForumOrdering): SQL[] {
  const pinnedFirst = descending(r.pinned);
  switch (ordering) {
    case 'created_at':
      return [pinnedFirst, asc(r.createdAt), asc(r.id)];
    case '-last_activity_at':
      return [pinnedFirst, descending(r.lastActivityAt), descending(r.id)];
    case '-upvotes':
      return [pinnedFirst, descending(r.upvotes), descending(r.id)];
    case '-updated_at':
      return [pinnedFirst, descending(r.updatedAt), descending(r.id)];
    default:
      return [pinnedFirst, descending(r.createdAt), descending(r.id)];
  }
}

/** How many of the newest topics a search walks in list order before it asks the search index. */
const SEARCH_WINDOW = 1000;

const afterSql = sql`(${r.pinned}, ${r.createdAt}, ${r.id}) < (${sql.placeholder('afterPinned')}::boolean, ${fromMicros(sql.placeholder('afterMicros'))}, ${sql.placeholder('afterId')}::int)`;

/**
 * One page of topic ids with their keysets, one more than `limit` to tell whether another page
 * follows; `after` (ordering -created_at only) is the row comparison the index walks from.
 */
const pageStatement = statementCache(
  (key: { shape: TopicShape; ordering: ForumOrdering; after: boolean }) =>
    `forum_page_${shapeName(key.shape)}_${key.after ? 'k' : 'o'}_${key.ordering.replace('-', 'd_')}`,
  (db, key, name) =>
    db
      .select({ id: r.id, pinned: r.pinned, createdMicros })
      .from(r)
      .where(and(topicConditions(key.shape), key.after ? afterSql : undefined))
      .orderBy(...topicOrder(key.ordering))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name),
);

/**
 * A search page in list order among the newest SEARCH_WINDOW topics (from the keyset on): the planner
 * cannot tell how many posts a Japanese phrase matches (it takes the bigrams as independent) and would
 * fetch and sort every match; walking the list index and testing each row finds a common word's page
 * within a few dozen rows. When the window holds less than the page, the search index answers instead
 * (a rare word: few matches to sort).
 */
const searchWindowStatement = statementCache(
  (key: { shape: TopicShape; after: boolean }) =>
    `forum_search_window_${shapeName(key.shape)}_${key.after ? 'k' : 'o'}`,
  (db, key, name) => {
    const windowed = db
      .select({
        id: r.id,
        pinned: r.pinned,
        createdMicros: createdMicros.as('created_micros'),
        searchVector: r.searchVector,
      })
      .from(r)
      .where(and(topicConditions({ ...key.shape, search: false }), key.after ? afterSql : undefined))
      .orderBy(...topicOrder('-created_at'))
      .limit(sql.placeholder('window'))
      .as('w');
    return db
      .select({ id: windowed.id, pinned: windowed.pinned, createdMicros: windowed.createdMicros })
      .from(windowed)
      .where(sql`${windowed.searchVector} @@ ${sql.placeholder('search')}::tsquery`)
      .limit(sql.placeholder('limit'))
      .prepare(name);
  },
);

export async function listTopicPage(
  db: Executor,
  filter: TopicFilter,
  page: { ordering: ForumOrdering; limit: number; offset: number; after?: Keyset },
): Promise<{ id: number; keyset: Keyset }[]> {
  const shape = shapeOf(filter);
  const after = page.after !== undefined;
  const params = {
    ...topicParams(filter),
    afterPinned: page.after?.pinned ?? false,
    afterMicros: page.after?.createdMicros ?? '0',
    afterId: page.after?.id ?? 0,
    limit: page.limit + 1,
    offset: page.offset,
  };
  const wanted = page.offset + page.limit + 1;
  if (shape.search && page.ordering === '-created_at' && wanted <= SEARCH_WINDOW) {
    const found = await searchWindowStatement(db, { shape, after }).execute({
      ...params,
      window: SEARCH_WINDOW,
      limit: wanted,
    });
    if (found.length === wanted) return found.slice(page.offset).map(toKeyed);
  }
  const rows = await pageStatement(db, { shape, ordering: page.ordering, after }).execute(params);
  return rows.map(toKeyed);
}

function toKeyed(row: { id: number; pinned: boolean; createdMicros: string }): {
  id: number;
  keyset: Keyset;
} {
  return { id: row.id, keyset: { pinned: row.pinned, createdMicros: row.createdMicros, id: row.id } };
}

const countStatement = statementCache(
  (key: { shape: TopicShape; capped: boolean }) =>
    `forum_count_${shapeName(key.shape)}_${key.capped ? 'cap' : 'all'}`,
  (db, key, name) => {
    const matching = db
      .select({ one: sql`1` })
      .from(r)
      .where(topicConditions(key.shape));
    const limited = key.capped ? matching.limit(sql.placeholder('cap')).as('m') : matching.as('m');
    return db
      .select({ n: sql<number>`count(*)::int` })
      .from(limited)
      .prepare(name);
  },
);

/** Counts matching topics, stopping at `cap` (so a common search word costs what a rare one does). */
export async function countTopics(db: Executor, filter: TopicFilter, cap?: number): Promise<number> {
  const [row] = await countStatement(db, { shape: shapeOf(filter), capped: cap !== undefined }).execute({
    ...topicParams(filter),
    cap: cap ?? 0,
  });
  return row?.n ?? 0;
}

const countsStatement = statementCache(
  () => 'forum_counts',
  (db, _key: null, name) =>
    db
      .select({
        topics: sql<number>`coalesce(${forumCourseStats.topics}, 0)::int`,
        announcements: sql<number>`coalesce(${forumCourseStats.announcements}, 0)::int`,
        read: sql<number>`((select count(*) from ${forumReads} as x where x.user_id = ${sql.placeholder('userId')}::int and x.course_id = ${courses.id}) - (select count(*) from ${r} as w join ${forumReads} as x on x.record_id = w.id and x.user_id = ${sql.placeholder('userId')}::int where w.course_id = ${courses.id} and w.published_at is null))::int`,
      })
      .from(courses)
      .leftJoin(forumCourseStats, eq(forumCourseStats.courseId, courses.id))
      .where(eq(courses.id, sql.placeholder('courseId')))
      .prepare(name),
);

/**
 * The course's published topics and announcements (the kept counters) and how many of the published
 * topics the user has read, in one prepared statement: what every list page and the unread badge need.
 * The read count is one index-only range of forum_reads_user_course_idx less the few reads of topics
 * still waiting to be published; it costs what the user has read, never what the course holds.
 */
export async function findForumCounts(
  db: Executor,
  courseId: number,
  userId: number,
): Promise<{ topics: number; announcements: number; read: number }> {
  const [row] = await countsStatement(db, null).execute({ courseId, userId });
  return row ?? { topics: 0, announcements: 0, read: 0 };
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
 * How many published topics of the course (narrowed by `isAnnouncement`) the user has read. Read rows
 * exist only for topics, so without the narrowing this is one index-only range of
 * forum_reads_user_course_idx less the few rows on topics still waiting to be published; it costs
 * what the user has read, never what the course holds.
 */
export async function countReadTopics(
  db: Executor,
  key: { userId: number; courseId: number; isAnnouncement?: boolean },
): Promise<number> {
  const mine = and(eq(forumReads.userId, key.userId), eq(forumReads.courseId, key.courseId));
  if (key.isAnnouncement === undefined) {
    const [row] = await db
      .select({
        n: sql<number>`(count(*) - (select count(*) from ${r} as w join ${forumReads} as x on x.record_id = w.id and x.user_id = ${key.userId}::int where w.course_id = ${key.courseId}::int and w.published_at is null))::int`,
      })
      .from(forumReads)
      .where(mine);
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forumReads)
    .innerJoin(r, eq(r.id, forumReads.recordId))
    .where(and(mine, isNull(r.parentId), isNotNull(r.publishedAt), eq(r.isAnnouncement, key.isAnnouncement)));
  return row?.n ?? 0;
}

/** Announcements still waiting for their time, soonest first (for editors of the course and staff). */
export async function listScheduledPage(
  db: Executor,
  courseId: number,
  page: { limit: number; offset: number; search?: string },
): Promise<{ count: number; ids: number[] }> {
  const where = and(
    eq(r.courseId, courseId),
    isNull(r.parentId),
    isNull(r.publishedAt),
    eq(r.isAnnouncement, true),
    page.search === undefined ? undefined : sql`${r.searchVector} @@ ${page.search}::tsquery`,
  );
  const rows = await db
    .select({ id: r.id, total: sql<number>`(count(*) over ())::int` })
    .from(r)
    .where(where)
    .orderBy(asc(r.scheduledAt), asc(r.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: rows[0]?.total ?? 0, ids: rows.map((row) => row.id) };
}

/** One page of a topic's comments (forum_records_parent_idx), and how many match. */
export async function listCommentPage(
  db: Executor,
  parentId: number,
  page: {
    ordering: 'created_at' | '-created_at' | '-upvotes';
    limit: number;
    offset: number;
    search?: string;
  },
): Promise<{ count: number; ids: number[] }> {
  const where = and(
    eq(r.parentId, parentId),
    page.search === undefined ? undefined : sql`${r.searchVector} @@ ${page.search}::tsquery`,
  );
  const order =
    page.ordering === '-created_at'
      ? [desc(r.createdAt), desc(r.id)]
      : page.ordering === '-upvotes'
        ? [desc(r.upvotes), asc(r.createdAt), asc(r.id)]
        : [asc(r.createdAt), asc(r.id)];
  const rows = await db
    .select({ id: r.id, total: sql<number>`(count(*) over ())::int` })
    .from(r)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length > 0 || page.offset === 0) return { count: rows[0]?.total ?? 0, ids: rows.map((x) => x.id) };
  // Past the last page the window has no row to report on; only then count separately.
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(r)
    .where(where);
  return { count: counted?.n ?? 0, ids: [] };
}
