import type { ForumOrdering } from '@kadai/contracts';
import type { ForumListParams } from './forum.api.ts';
import { FORUM_PAGE_SIZE } from './forum.queries.ts';

/** The Forum page's tabs; `announcement` is the default (spec §3: forumActiveTab). */
export const FORUM_TABS = ['announcement', 'discussion', 'unread', 'scheduled'] as const;
export type ForumTab = (typeof FORUM_TABS)[number];
export const DEFAULT_FORUM_TAB: ForumTab = 'announcement';

/** The orderings the page offers (the API knows one more, `-updated_at`, which readers do not need). */
export const LIST_ORDERINGS = ['-created_at', 'created_at', '-last_activity_at', '-upvotes'] as const;
export type ListOrdering = (typeof LIST_ORDERINGS)[number];

export function isForumTab(value: string | null | undefined): value is ForumTab {
  return FORUM_TABS.some((tab) => tab === value);
}

export function isListOrdering(value: string | null | undefined): value is ListOrdering {
  return LIST_ORDERINGS.some((ordering) => ordering === value);
}

/**
 * The tab to show: the one in the address (a shared link), else the one remembered on this device,
 * else announcements. Only editors and staff have the Scheduled tab.
 */
export function resolveForumTab(fromUrl: string | null, remembered: string, canManage: boolean): ForumTab {
  for (const candidate of [fromUrl, remembered]) {
    if (isForumTab(candidate) && (candidate !== 'scheduled' || canManage)) return candidate;
  }
  return DEFAULT_FORUM_TAB;
}

export interface ForumFilters {
  search: string;
  pinnedOnly: boolean;
  /** Only topics the reader wrote. */
  mine: boolean;
  ordering: ListOrdering;
}

export const DEFAULT_FILTERS: ForumFilters = {
  search: '',
  pinnedOnly: false,
  mine: false,
  ordering: '-created_at',
};

/** The list call of a tab with the page's filters. */
export function forumListParams(
  courseId: number,
  tab: ForumTab,
  filters: ForumFilters,
  userId: number | null,
): ForumListParams {
  const ordering: ForumOrdering = filters.ordering;
  const common = {
    course: courseId,
    ordering,
    limit: FORUM_PAGE_SIZE,
    pinned_only: filters.pinnedOnly || undefined,
    full_text_search: filters.search.trim() || undefined,
  };
  if (tab === 'scheduled') {
    // Waiting announcements: only the announcements call lists them (and it has no author filter).
    return { ...common, endpoint: 'announcements', scheduled_ones: true };
  }
  const mine = filters.mine && userId !== null ? { user_id: userId } : {};
  if (tab === 'unread') return { ...common, ...mine, endpoint: 'records', unread_only: true };
  return { ...common, ...mine, endpoint: 'records', is_announcement: tab === 'announcement' };
}
