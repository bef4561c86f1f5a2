import { queryOptions } from '@tanstack/react-query';
import { Gradebook } from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

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
