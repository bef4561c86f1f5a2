import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { Gradebook } from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';
import { useSession } from '../auth/session.ts';

export function getGradebook(courseId: number, signal?: AbortSignal) {
  return apiCall('getGradebook', 'GET', '/Course/{id}/gradebook/', {
    path: { id: courseId },
    response: Gradebook,
    signal,
  });
}

export function downloadGradebookCsv(courseId: number) {
  return apiDownload('downloadGradebookCsv', '/Course/{id}/gradebook/csv/', {
    path: { id: courseId },
    accept: 'text/csv',
  });
}

export const gradebookKeys = { book: (courseId: number) => ['gradebook', courseId] as const };

export function gradebookQuery(courseId: number) {
  return queryOptions({
    queryKey: gradebookKeys.book(courseId),
    queryFn: ({ signal }) => getGradebook(courseId, signal),
  });
}

/**
 * The book, asked for when the gradebook is opened from its address (app/page-data.ts), beside the
 * page's code instead of once the page is drawn: its answer is the page's largest part (issue 36). Only
 * for those who may see it, the course's editors and staff: a student would only be refused.
 */
export function prefetchGradebookPage(
  queryClient: QueryClient,
  _params: Readonly<Record<string, string>>,
  courseId: number,
): void {
  const { is_staff, editorCourses } = useSession.getState();
  if (!is_staff && !editorCourses.includes(courseId)) return;
  void queryClient.prefetchQuery(gradebookQuery(courseId));
}
