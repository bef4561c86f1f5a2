import { queryOptions } from '@tanstack/react-query';
import { getCourseOverview } from './overview.api.ts';

export const overviewKeys = {
  all: ['overview'] as const,
  course: (courseId: number) => [...overviewKeys.all, courseId] as const,
};

/**
 * The home of a course. Always refetched when the page opens (shown from the cache meanwhile): coming
 * back from reading an announcement or submitting, the home says so at once.
 */
export function courseOverviewQuery(courseId: number) {
  return queryOptions({
    queryKey: overviewKeys.course(courseId),
    queryFn: ({ signal }) => getCourseOverview(courseId, signal),
    staleTime: 0,
  });
}
