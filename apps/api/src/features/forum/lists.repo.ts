import { and, asc, desc, eq, isNotNull, isNull, not, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ForumOrdering } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { literalLimit, prepareSelect, statementCache } from '../../db/prepared.ts';
import { users } from '../../db/schema.ts';
import { forumReads, forumRecords } from '../../db/schema-forum.ts';
import {
  forumContextColumns,
  toForumContext,
  type ForumContext,
  type ForumContextRow,
} from './counts.repo.ts';
import { recordDetailColumns, toRecordDetail, type RecordDetail } from './record-details.repo.ts';

/*
 * The forum's lists (docs/forum.md, "Lists"). A page is one statement: the ids of the page (walking
 * forum_records_list_idx / forum_records_announcements_idx with LIMIT, or from a keyset boundary) under
 * the details of just those rows (record-details.repo.ts), each row carrying the caller's forum context
 * (counts.repo.ts, forumContextColumns: computed once per statement).
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
export interface TopicShape {
  isAnnouncement?: boolean;
  pinnedOnly?: boolean;
  unreadOnly?: boolean;
  author: boolean;
  updatedBy: boolean;
  search: boolean;
}

export function shapeOf(filter: TopicFilter): TopicShape {
  return {
    isAnnouncement: filter.isAnnouncement,
    pinnedOnly: filter.pinnedOnly,
    unreadOnly: filter.unreadOnly,
    author: filter.authorId !== undefined,
    updatedBy: filter.updatedBy !== undefined,
    search: filter.search !== undefined,
  };
}

export const shapeName = (shape: TopicShape) =>
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
    // The bare column, not `= true` (a bound parameter): a statement planned once can use the partial
    // index forum_records_announcements_idx only when its predicate is written as the index's is.
    shape.isAnnouncement === true ? sql`${r.isAnnouncement}` : undefined,
    shape.isAnnouncement === false ? not(r.isAnnouncement) : undefined,
    shape.pinnedOnly ? sql`${r.pinned}` : undefined,
    shape.author ? eq(r.authorId, sql.placeholder('authorId')) : undefined,
    shape.updatedBy ? eq(r.updatedBy, sql.placeholder('updatedBy')) : undefined,
    shape.unreadOnly
      ? sql`not exists (select 1 from ${forumReads} where ${forumReads.recordId} = ${r.id} and ${forumReads.userId} = ${sql.placeholder('viewerId')}::int)`
      : undefined,
    shape.search ? sql`${r.searchVector} @@ ${sql.placeholder('search')}::tsquery` : undefined,
  );
}

export function topicParams(filter: TopicFilter) {
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

/**
 * How many of the newest topics a search that matches many walks in list order before it asks the
 * search index (a search that matches few asks the index at once: walking would find too little).
 */
const SEARCH_WINDOW = 1000;

/**
 * The keyset boundary. Its values come through a sub-select on purpose: given the values themselves,
 * PostgreSQL estimated each page from the column statistics, found every estimate cheaper than one
 * plan for all, and planned every page anew (0.6 ms, twice the run); behind the sub-select the values
 * are unknown to each plan alike, the statement is planned once, and the index still seeks the row.
 */
const afterSql = sql`(${r.pinned}, ${r.createdAt}, ${r.id}) < (select ${sql.placeholder('afterPinned')}::boolean, ${fromMicros(sql.placeholder('afterMicros'))}, ${sql.placeholder('afterId')}::int)`;

interface PageKey {
  shape: TopicShape;
  ordering: ForumOrdering;
  after: boolean;
  /** The search walks the newest SEARCH_WINDOW topics in list order (see pageIds). */
  windowed: boolean;
  /** Rows to fetch: written into the statement (literalLimit), so each count has its own. */
  rows: number;
  /** Whether the page skips rows by offset (a bound one: such pages are planned per execution). */
  offset: boolean;
}

/**
 * The newest `rows` topics of the filter but its search (from the keyset on, if given), in list order,
 * with their search vectors: what a search walks and tests instead of asking the GIN index.
 */
export function newestTopics(db: Executor, shape: TopicShape, rows: number, keyset?: SQL) {
  return db
    .select({
      id: r.id,
      pinned: r.pinned,
      createdMicros: createdMicros.as('created_micros'),
      searchVector: r.searchVector,
    })
    .from(r)
    .where(and(topicConditions({ ...shape, search: false }), keyset))
    .orderBy(...topicOrder('-created_at'))
    .limit(literalLimit(rows))
    .as('w');
}

/** drizzle leaves out an offset of 0: only pages that skip rows bind one. */
const offsetOf = (key: PageKey) => (key.offset ? sql.placeholder('offset') : 0);

/**
 * The ids of one page with their keysets, one more than `limit` to tell whether another page follows;
 * `after` (ordering -created_at only) is the row comparison the index walks from.
 *
 * Windowed: a search page in list order among the newest SEARCH_WINDOW topics (from the keyset on).
 * The planner cannot tell how many posts a Japanese phrase matches (it takes the bigrams as
 * independent) and would fetch and sort every match; walking the list index and testing each row finds
 * a common word's page within a few dozen rows. When the window holds less than the page, the search
 * index answers instead (a rare word: few matches to sort).
 */
function pageIds(db: Executor, key: PageKey) {
  const keyset = key.after ? afterSql : undefined;
  if (!key.windowed) {
    return db
      .select({ id: r.id, pinned: r.pinned, createdMicros: createdMicros.as('created_micros') })
      .from(r)
      .where(and(topicConditions(key.shape), keyset))
      .orderBy(...topicOrder(key.ordering))
      .limit(literalLimit(key.rows))
      .offset(offsetOf(key))
      .as('p');
  }
  const windowed = newestTopics(db, key.shape, SEARCH_WINDOW, keyset);
  return db
    .select({ id: windowed.id, pinned: windowed.pinned, createdMicros: windowed.createdMicros })
    .from(windowed)
    .where(sql`${windowed.searchVector} @@ ${sql.placeholder('search')}::tsquery`)
    .limit(literalLimit(key.rows))
    .offset(offsetOf(key))
    .as('p');
}

/**
 * A page of topics with everything the list shows, in one statement: the page's ids (walking
 * forum_records_list_idx / forum_records_announcements_idx with LIMIT, or from a keyset), then the
 * details of just those rows — an offset's skipped rows never pay for authors, flags or files — and
 * the caller's forum context on every row.
 */
const pageStatement = statementCache(
  (key: PageKey) =>
    `forum_page_${shapeName(key.shape)}_${key.after ? 'k' : ''}${key.offset ? 'o' : ''}_${key.windowed ? 'w' : key.ordering.replace('-', 'd_')}_${key.rows}`,
  (db, key, name) => {
    const page = pageIds(db, key);
    const query = db
      .select({ ...recordDetailColumns, pageMicros: page.createdMicros, ...forumContextColumns })
      .from(page)
      .innerJoin(r, eq(r.id, page.id))
      .innerJoin(users, eq(users.id, r.authorId))
      .orderBy(...topicOrder(key.windowed ? '-created_at' : key.ordering));
    return prepareSelect(db, query, name);
  },
);

export interface PageRow {
  record: RecordDetail;
  keyset: Keyset;
}

export interface TopicPage {
  rows: PageRow[];
  /** The caller's forum context, carried by the rows; null when the page is empty (ask findForumContext). */
  context: ForumContext | null;
}

/** One page of topics (one more than `limit` when another page follows), with their details. */
export async function listTopicPage(
  db: Executor,
  filter: TopicFilter,
  page: {
    ordering: ForumOrdering;
    limit: number;
    offset: number;
    after?: Keyset;
    /** A search known to match many topics: its page is looked for among the newest first. */
    manyMatches?: boolean;
  },
): Promise<TopicPage> {
  const shape = shapeOf(filter);
  const after = page.after !== undefined;
  const params = {
    ...topicParams(filter),
    afterPinned: page.after?.pinned ?? false,
    afterMicros: page.after?.createdMicros ?? '0',
    afterId: page.after?.id ?? 0,
    offset: page.offset,
  };
  const key = { shape, ordering: page.ordering, after, rows: page.limit + 1, offset: page.offset > 0 };
  const windowed =
    shape.search &&
    page.manyMatches === true &&
    page.ordering === '-created_at' &&
    page.offset + page.limit + 1 <= SEARCH_WINDOW;
  if (windowed) {
    const found = await pageStatement(db, { ...key, windowed: true }).execute(params);
    if (found.length === page.limit + 1) return toTopicPage(found);
  }
  return toTopicPage(await pageStatement(db, { ...key, windowed: false }).execute(params));
}

export type PageStatementRow = Parameters<typeof toRecordDetail>[0] & {
  pageMicros: string;
} & ForumContextRow;

export function toTopicPage(rows: PageStatementRow[]): TopicPage {
  return {
    // The rows go on as they are (no copy without the context columns: toForumRecord picks its fields).
    rows: rows.map((row) => ({
      record: toRecordDetail(row),
      keyset: { pinned: row.pinned, createdMicros: row.pageMicros, id: row.id },
    })),
    context: rows[0] ? toForumContext(rows[0]) : null,
  };
}

const countStatement = statementCache(
  (key: { shape: TopicShape; cap?: number }) => `forum_count_${shapeName(key.shape)}_${key.cap ?? 'all'}`,
  (db, key, name) => {
    const matching = db
      .select({ one: sql`1` })
      .from(r)
      .where(topicConditions(key.shape));
    const limited = key.cap === undefined ? matching.as('m') : matching.limit(literalLimit(key.cap)).as('m');
    return prepareSelect(db, db.select({ n: sql<number>`count(*)::int` }).from(limited), name);
  },
);

/** Counts matching topics, stopping at `cap` (so a common search word costs what a rare one does). */
export async function countTopics(db: Executor, filter: TopicFilter, cap?: number): Promise<number> {
  const [row] = await countStatement(db, { shape: shapeOf(filter), cap }).execute(topicParams(filter));
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
