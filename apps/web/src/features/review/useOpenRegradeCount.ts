import { useQuery } from '@tanstack/react-query';
import { regradeRequestsQuery } from './review.queries.ts';

/**
 * The course's open regrade requests (the side rail's badge for its editors), the same query as the
 * requests page's, so an answer there lowers it at once. Null until known or when not asked.
 */
export function useOpenRegradeCount(courseId: number, enabled: boolean): number | null {
  const open = useQuery({
    ...regradeRequestsQuery(courseId, { status: 'open' }),
    enabled,
    select: (list) => list.count,
  });
  return open.data ?? null;
}
