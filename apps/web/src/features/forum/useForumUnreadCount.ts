import { useQuery } from '@tanstack/react-query';
import { forumUnreadQuery } from './forum.queries.ts';

/**
 * The reader's unread topics in a course (the side rail's badge), refreshed on focus and every minute,
 * and at once when a post is read (the detail page invalidates the query). Null until known.
 */
export function useForumUnreadCount(courseId: number): number | null {
  const unread = useQuery(forumUnreadQuery(courseId));
  return unread.data ?? null;
}
