import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ForumRecordList, Language } from '@kadai/contracts';
import {
  getForumRecord,
  getForumUnread,
  getSignedUrl,
  getUpvoters,
  listComments,
  listForumRecords,
  listTemplates,
  type ForumListParams,
  type ForumPageParam,
} from './forum.api.ts';

export const FORUM_PAGE_SIZE = 20;
export const COMMENT_PAGE_SIZE = 20;
/** The side rail and the Unread tab recount this often while the page is open. */
export const UNREAD_REFRESH_MS = 60_000;

export const forumKeys = {
  all: ['forum'] as const,
  course: (courseId: number) => [...forumKeys.all, 'course', courseId] as const,
  lists: (courseId: number) => [...forumKeys.course(courseId), 'list'] as const,
  list: (params: ForumListParams) => [...forumKeys.lists(params.course), params] as const,
  unread: (courseId: number) => [...forumKeys.course(courseId), 'unread'] as const,
  templates: (courseId: number, lang: Language) =>
    [...forumKeys.course(courseId), 'templates', lang] as const,
  record: (id: number) => [...forumKeys.all, 'record', id] as const,
  comments: (id: number) => [...forumKeys.record(id), 'comments'] as const,
  upvoters: (id: number) => [...forumKeys.record(id), 'upvoters'] as const,
  signedUrl: (fileId: number) => [...forumKeys.all, 'file', fileId] as const,
};

/**
 * The next page of a list: the cursor when the API gave one (deep pages cost what page 1 costs), else
 * an offset, for the orderings the cursor does not cover. A short page is the last one.
 */
export function nextForumPage(
  last: ForumRecordList,
  loaded: number,
  pageSize: number,
): ForumPageParam | null {
  if (last.results.length < pageSize) return null;
  if (last.next_cursor) return { cursor: last.next_cursor };
  if (last.count_exact && loaded >= last.count) return null;
  return { offset: loaded };
}

const FIRST_PAGE: ForumPageParam = {};

export function forumListQuery(params: ForumListParams) {
  return infiniteQueryOptions({
    queryKey: forumKeys.list(params),
    queryFn: ({ pageParam, signal }) => listForumRecords(params, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (last, pages) =>
      nextForumPage(
        last,
        pages.reduce((sum, page) => sum + page.results.length, 0),
        params.limit,
      ),
  });
}

/** Unread topics for the side rail and the Unread tab: one query, so both change together. */
export function forumUnreadQuery(courseId: number) {
  return queryOptions({
    queryKey: forumKeys.unread(courseId),
    queryFn: ({ signal }) => getForumUnread(courseId, signal),
    select: (list) => list.unread_count,
    refetchInterval: UNREAD_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

export function forumRecordQuery(id: number) {
  return queryOptions({
    queryKey: forumKeys.record(id),
    queryFn: ({ signal }) => getForumRecord(id, signal),
  });
}

export function commentsQuery(id: number) {
  return infiniteQueryOptions({
    queryKey: forumKeys.comments(id),
    queryFn: ({ pageParam, signal }) => listComments(id, pageParam, COMMENT_PAGE_SIZE, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.results.length, 0);
      return loaded < last.count && last.results.length > 0 ? loaded : null;
    },
  });
}

export function upvotersQuery(id: number) {
  return queryOptions({
    queryKey: forumKeys.upvoters(id),
    queryFn: ({ signal }) => getUpvoters(id, signal),
  });
}

export function templatesQuery(courseId: number, lang: Language) {
  return queryOptions({
    queryKey: forumKeys.templates(courseId, lang),
    queryFn: ({ signal }) => listTemplates(courseId, lang, signal),
    staleTime: Infinity,
  });
}

/** Signed URLs are short-lived: refetched well before they expire, never kept after. */
export function signedUrlQuery(fileId: number) {
  return queryOptions({
    queryKey: forumKeys.signedUrl(fileId),
    queryFn: ({ signal }) => getSignedUrl(fileId, signal),
    staleTime: 30_000,
    gcTime: 60_000,
  });
}

/** After a read, a write or a delete: every list of the course and its unread count are out of date. */
export function invalidateForumLists(queryClient: QueryClient, courseId: number) {
  return queryClient.invalidateQueries({ queryKey: forumKeys.course(courseId) });
}

/** Breadcrumb title of a post: the same query as its page, so the cache serves both. */
export async function resolveForumRecordTitle(value: string, _params: unknown, queryClient: QueryClient) {
  const record = await queryClient.ensureQueryData(forumRecordQuery(Number(value)));
  return record.title;
}
