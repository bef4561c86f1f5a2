import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { MarkAllRead, MarkedRead, NotificationList } from '@kadai/contracts';
import { useIsAuthenticated } from '../auth/session.ts';
import {
  getCourseNotificationSettings,
  getNotificationSettings,
  getUnreadCount,
  listNotifications,
  markAllRead,
  markRead,
  type NotificationListParams,
} from './notifications.api.ts';

/** The bell asks for the unread count this often (and when the window takes the focus again). */
export const UNREAD_POLL_MS = 30_000;
/** The bell's list shows the newest few; the page loads this many at a time. */
export const POPOVER_PAGE_SIZE = 8;
export const PAGE_SIZE = 20;

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  lists: () => [...notificationKeys.all, 'list'] as const,
  list: (params: NotificationListParams) => [...notificationKeys.lists(), params] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
  course: (courseId: number) => [...notificationKeys.all, 'course', courseId] as const,
};

/**
 * The reader's unread count: the bell's badge. Polled like a submission's result (TanStack Query
 * pauses while the tab is hidden) and asked again when the window takes the focus.
 */
export function unreadCountQuery() {
  return queryOptions({
    queryKey: notificationKeys.unread(),
    queryFn: ({ signal }) => getUnreadCount(signal),
    select: (answer) => answer.unread,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });
}

/** The unread count for the signed-in reader; null until known (and when signed out). */
export function useUnreadCount(): number | null {
  const enabled = useIsAuthenticated();
  const unread = useQuery({ ...unreadCountQuery(), enabled });
  return enabled ? (unread.data ?? null) : null;
}

/**
 * Newest first, a page at a time (`next_cursor`); read fresh each time a list is shown. Each answer
 * carries the unread count, which the bell then shows too, so the two never disagree.
 */
export function notificationListQuery(params: NotificationListParams) {
  return infiniteQueryOptions({
    queryKey: notificationKeys.list(params),
    queryFn: async ({ pageParam, signal, client }) => {
      const page = await listNotifications(params, pageParam, signal);
      client.setQueryData(notificationKeys.unread(), { unread: page.unread });
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 0,
  });
}

/** What reaches the reader by e-mail (the settings page). */
export function notificationSettingsQuery() {
  return queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
  });
}

/** A course's own choice (its editors hear of new members, or not). */
export function courseNotificationSettingsQuery(courseId: number) {
  return queryOptions({
    queryKey: notificationKeys.course(courseId),
    queryFn: ({ signal }) => getCourseNotificationSettings(courseId, signal),
  });
}

type ListData = InfiniteData<NotificationList, string | null>;

/** Puts a count the server answered into the bell's query and every list's. */
function setUnread(queryClient: QueryClient, unread: number): void {
  queryClient.setQueryData(notificationKeys.unread(), { unread });
  queryClient.setQueriesData<ListData>({ queryKey: notificationKeys.lists() }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, unread })) } : data,
  );
}

/** Marks the cached notifications `isMarked` picks as read now, in every list. */
function markCached(queryClient: QueryClient, isMarked: (id: number) => boolean): void {
  const now = new Date().toISOString();
  queryClient.setQueriesData<ListData>({ queryKey: notificationKeys.lists() }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            results: page.results.map((item) =>
              item.read_at === null && isMarked(item.id) ? { ...item, read_at: now } : item,
            ),
          })),
        }
      : data,
  );
}

/**
 * One notification read: the lists show it read and the badge takes the server's count. In the
 * mutation's own options, so it still lands when the bell's list has closed on the way to the link.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => markRead(id),
    onSuccess: (answer: MarkedRead, id) => {
      markCached(queryClient, (other) => other === id);
      setUnread(queryClient, answer.unread);
    },
  });
}

/**
 * Every unread one read (or a course's, or a page's: `link`). Read all of them and the lists are
 * patched; read a part and they are asked again, since only the server knows which went.
 */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkAllRead) => markAllRead(body),
    onSuccess: async (answer: MarkedRead, body) => {
      if (body.course_id === undefined && body.link === undefined) markCached(queryClient, () => true);
      else if (answer.marked > 0) await queryClient.invalidateQueries({ queryKey: notificationKeys.lists() });
      setUnread(queryClient, answer.unread);
    },
  });
}
