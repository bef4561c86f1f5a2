import { queryOptions } from '@tanstack/react-query';
import { isApiError } from '../../api/client.ts';
import { getPygradeStatus } from './pygrade.api.ts';

/** The console asks again this often while the tab is visible (TanStack Query pauses when hidden). */
export const STATUS_REFRESH_MS = 5000;

export const pygradeKeys = {
  all: ['pygrade'] as const,
  status: () => [...pygradeKeys.all, 'status'] as const,
};

export function pygradeStatusQuery() {
  return queryOptions({
    queryKey: pygradeKeys.status(),
    queryFn: ({ signal }) => getPygradeStatus(signal),
    // A refusal will not change by asking again every few seconds.
    refetchInterval: (query) => (isApiError(query.state.error, 403) ? false : STATUS_REFRESH_MS),
  });
}
