import type { z } from 'zod';
import {
  MAX_FORUM_SEARCH_COUNT,
  type CourseRole,
  type ForumAnnouncementListQuery,
  type ForumCommentList,
  type ForumCommentListQuery,
  type ForumRecordList,
  type ForumRecordListQuery,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, roleOf } from '../courses/courses.service.ts';
import {
  countReadTopics,
  findForumContext,
  unreadOf,
  type ForumContext,
  type ForumCounts,
} from './counts.repo.ts';
import { getVisibleRecord, toForumRecord } from './forum-access.ts';
import * as lists from './lists.repo.ts';
import { presentRecords } from './present.ts';
import { probeSearchPage } from './probe.repo.ts';
import { forumSearchQuery } from './search.ts';
import { probeFellShort, rememberShortProbe } from './search-hints.ts';

/* The topic lists, the announcements and a topic's comments (docs/forum.md, "Lists"). */

type RecordQuery = z.output<typeof ForumRecordListQuery>;
type AnnouncementQuery = z.output<typeof ForumAnnouncementListQuery>;
type CommentQuery = z.output<typeof ForumCommentListQuery>;

/** `next_cursor`: base64url of "pinned.createdMicros.id" of the page's last row. */
export function encodeCursor(keyset: lists.Keyset): string {
  return Buffer.from(`${keyset.pinned ? 1 : 0}.${keyset.createdMicros}.${keyset.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): lists.Keyset {
  const match = /^([01])\.(-?\d{1,18})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = Number(match?.[3]);
  if (!match || id > 2_147_483_647) throw badRequest('Invalid cursor.', { cursor: ['Invalid cursor.'] });
  return { pinned: match[1] === '1', createdMicros: match[2] ?? '0', id };
}

/**
 * The search text as a tsquery literal; undefined when there is none. Text with no word in it
 * (only punctuation) finds nothing rather than everything.
 */
function searchOf(text: string | undefined): { query?: string; empty: boolean } {
  if (!text) return { empty: false };
  const query = forumSearchQuery(text);
  return query === null ? { empty: true } : { query, empty: false };
}

/** Whether `count` must be counted live: a narrow filter (pinned, author, last editor: each has its index). */
const isNarrow = (filter: lists.TopicFilter) =>
  filter.pinnedOnly === true || filter.authorId !== undefined || filter.updatedBy !== undefined;

/**
 * What `count` needs besides the forum context, asked beside the page: a live count for the narrow
 * filters, and for the Unread tab of one kind the caller's read topics of that kind. Undefined: the
 * kept counters answer alone.
 */
function liveCountFor(ctx: AppContext, filter: lists.TopicFilter): Promise<number> | undefined {
  if (isNarrow(filter)) return lists.countTopics(ctx.db, filter);
  if (filter.unreadOnly && filter.isAnnouncement !== undefined) {
    return countReadTopics(ctx.db, {
      userId: filter.viewerId,
      courseId: filter.courseId,
      isAnnouncement: filter.isAnnouncement,
    });
  }
  return undefined;
}

/**
 * `count` without scanning the course: the kept counters for a plain list (and the announcements),
 * counters less the caller's read topics for the Unread tab, a live count for the narrow filters.
 */
function countOf(filter: lists.TopicFilter, counts: ForumCounts, live: number | undefined): number {
  if (isNarrow(filter)) return live ?? 0;
  const all =
    filter.isAnnouncement === true
      ? counts.announcements
      : filter.isAnnouncement === false
        ? counts.topics - counts.announcements
        : counts.topics;
  if (!filter.unreadOnly) return all;
  const read = filter.isAnnouncement === undefined ? counts.read : (live ?? 0);
  return Math.max(all - read, 0);
}

/** The caller's role and counts from the forum context; 404 for no such course, or no standing in it. */
function standingIn(actor: Actor, context: ForumContext | null): { role: CourseRole; counts: ForumCounts } {
  const role = context && roleOf(actor, context.relation);
  if (!role) throw notFound();
  return { role, counts: context.counts };
}

/** A capped search count (over MAX_FORUM_SEARCH_COUNT: not exact), from the search index. */
async function countSearch(
  ctx: AppContext,
  filter: lists.TopicFilter,
): Promise<{ count: number; exact: boolean }> {
  const n = await lists.countTopics(ctx.db, filter, MAX_FORUM_SEARCH_COUNT + 1);
  return n > MAX_FORUM_SEARCH_COUNT
    ? { count: MAX_FORUM_SEARCH_COUNT, exact: false }
    : { count: n, exact: true };
}

async function listTopics(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  filter: Omit<lists.TopicFilter, 'courseId' | 'viewerId' | 'search'>,
  query: Pick<RecordQuery, 'ordering' | 'limit' | 'offset' | 'cursor' | 'full_text_search'>,
): Promise<ForumRecordList> {
  if (query.cursor !== undefined && query.ordering !== '-created_at') {
    throw badRequest('A cursor pages the ordering -created_at only.', { cursor: ['Use offset.'] });
  }
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const search = searchOf(query.full_text_search);
  const full: lists.TopicFilter = { ...filter, courseId, viewerId: actor.userId, search: search.query };
  const pageOptions = { ordering: query.ordering, limit: query.limit, offset: query.offset, after };
  const probable =
    search.query !== undefined &&
    after === undefined &&
    query.ordering === '-created_at' &&
    query.offset + query.limit < PROBED;
  // One statement for the page, its rows carrying the caller's forum context (standing and counts); a
  // page fetched for someone who turns out not to be a member is thrown away unseen.
  let page: lists.TopicPage = { rows: [], context: null };
  let counted: { count: number; exact: boolean } | undefined;
  let live: number | undefined;
  const probed = probable ? await probeFirstPages(ctx, full, pageOptions) : null;
  // Otherwise a search is counted first (capped): a word that matches many finds its page among the
  // newest topics, one that matches few is sorted from the search index (lists.repo.ts, SEARCH_WINDOW).
  if (probed) {
    page = probed;
    counted = { count: MAX_FORUM_SEARCH_COUNT, exact: false };
  } else if (search.empty) {
    counted = { count: 0, exact: true };
  } else if (search.query !== undefined) {
    counted = await countSearch(ctx, full);
    page = await lists.listTopicPage(ctx.db, full, { ...pageOptions, manyMatches: !counted.exact });
  } else {
    const pendingLive = liveCountFor(ctx, full);
    pendingLive?.catch(() => {}); // awaited below; a failure is reported there
    page = await lists.listTopicPage(ctx.db, full, pageOptions);
    live = await pendingLive;
  }
  const context = page.context ?? (await findForumContext(ctx.db, courseId, actor.userId));
  const { role, counts } = standingIn(actor, context);
  const { count, exact } = counted ?? { count: countOf(full, counts, live), exact: true };
  const rows = page.rows.slice(0, query.limit);
  const last = rows.at(-1);
  return {
    count,
    count_exact: exact,
    limit: query.limit,
    offset: query.offset,
    next_cursor:
      page.rows.length > query.limit && last && query.ordering === '-created_at'
        ? encodeCursor(last.keyset)
        : null,
    unread_count: unreadOf(counts),
    results: rows.map((row) => toForumRecord(row.record, { actor, role })),
  };
}

/** What a search's probe finds depends on: the course, the filters, the words (and for Unread, the reader). */
const searchHintKey = (f: lists.TopicFilter) =>
  JSON.stringify([
    f.courseId,
    f.isAnnouncement ?? null,
    f.pinnedOnly ?? false,
    f.unreadOnly ? f.viewerId : null,
    f.authorId ?? null,
    f.updatedBy ?? null,
    f.search,
  ]);

/** A search's capped count, and the number of matches the probe looks for to answer it. */
const PROBED = MAX_FORUM_SEARCH_COUNT + 1;

/**
 * A search's first pages (within its first PROBED matches, ordering -created_at) from the probe
 * (probe.repo.ts): when it finds PROBED matches among the newest topics, they give both the capped
 * count and the page, without the search index; a common word costs a walk of a few hundred index
 * entries instead of a bitmap of thousands. Null when the probe comes up short, or came up short for
 * the same search lately (search-hints.ts): a rarer word, which the index answers as it must count
 * them all.
 */
async function probeFirstPages(
  ctx: AppContext,
  filter: lists.TopicFilter,
  page: { limit: number; offset: number },
): Promise<lists.TopicPage | null> {
  const hint = searchHintKey(filter);
  if (probeFellShort(ctx.db, hint)) return null;
  const probe = await probeSearchPage(ctx.db, filter, {
    matches: PROBED,
    offset: page.offset,
    limit: page.limit,
  });
  if (probe.found >= PROBED) return probe;
  rememberShortProbe(ctx.db, hint);
  return null;
}

/** `GET Forum/Record/`: published topics only, for every role (scheduled ones: the announcements list). */
export function listRecords(ctx: AppContext, actor: Actor, query: RecordQuery): Promise<ForumRecordList> {
  return listTopics(
    ctx,
    actor,
    query.course,
    {
      isAnnouncement: query.is_announcement,
      pinnedOnly: query.pinned_only,
      unreadOnly: query.unread_only,
      authorId: query.user_id,
      updatedBy: query.updated_by,
    },
    query,
  );
}

/** `GET Forum/Record/announcements/`; `scheduled_ones=true`: the waiting ones (managers; students 403). */
export async function listAnnouncements(
  ctx: AppContext,
  actor: Actor,
  query: AnnouncementQuery,
): Promise<ForumRecordList> {
  if (!query.scheduled_ones) {
    return listTopics(
      ctx,
      actor,
      query.course,
      { isAnnouncement: true, pinnedOnly: query.pinned_only, unreadOnly: query.unread_only },
      query,
    );
  }
  // One statement for the role and the unread count (the context every list answers with).
  const { role, counts } = standingIn(actor, await findForumContext(ctx.db, query.course, actor.userId));
  if (!canManageCourse(role))
    throw forbidden('Only editors of the course and staff see scheduled announcements.');
  const search = searchOf(query.full_text_search);
  const page = search.empty
    ? { count: 0, ids: [] }
    : await lists.listScheduledPage(ctx.db, query.course, {
        limit: query.limit,
        offset: query.offset,
        search: search.query,
      });
  return {
    count: page.count,
    count_exact: true,
    limit: query.limit,
    offset: query.offset,
    next_cursor: null,
    unread_count: unreadOf(counts),
    results: await presentRecords(ctx.db, page.ids, { actor, role }),
  };
}

/** `GET Forum/Comment/?parent_record=`: the comments of a topic the caller can see. */
export async function listComments(
  ctx: AppContext,
  actor: Actor,
  query: CommentQuery,
): Promise<ForumCommentList> {
  const { record, role } = await getVisibleRecord(ctx.db, actor, query.parent_record);
  if (record.parentId !== null) {
    throw badRequest('Comments belong to topics.', { parent_record: ['This is a comment.'] });
  }
  const search = searchOf(query.search);
  const page = search.empty
    ? { count: 0, ids: [] }
    : await lists.listCommentPage(ctx.db, record.id, {
        ordering: query.ordering,
        limit: query.limit,
        offset: query.offset,
        search: search.query,
      });
  return {
    count: page.count,
    limit: query.limit,
    offset: query.offset,
    results: await presentRecords(ctx.db, page.ids, { actor, role }),
  };
}
