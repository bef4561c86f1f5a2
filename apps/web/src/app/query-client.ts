import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/client.ts';
import { useSession } from '../features/auth/session.ts';

export function createQueryClient(): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // An answer from the server (404, 403, 400) will not change on retry; a dropped connection may.
        retry: (failureCount, error) => !isApiError(error) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
  // Whoever signs in next must not see the last person's data.
  useSession.subscribe((state, previous) => {
    if (previous.authToken !== null && state.authToken === null) queryClient.clear();
  });
  return queryClient;
}
