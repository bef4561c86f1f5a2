import type { QueryClient } from '@tanstack/react-query';
import { syncSessionAcrossTabs, useSession } from '../features/auth/session.ts';
import { loadLanguage } from '../i18n/index.ts';
import { prefetchOpenedPage } from './page-data.ts';
import { createQueryClient } from './query-client.ts';

export interface StartedData {
  queryClient: QueryClient;
  /** Settles once the shown language's dictionary is in (or failed to come: keys stand in for texts). */
  language: Promise<void>;
}

/**
 * The first stage of the start (main.tsx): the session, the server state and the opened page's first
 * API calls, beside the dictionary, before React and the app's modules are evaluated.
 */
export function startData(): StartedData {
  syncSessionAcrossTabs();
  const queryClient = createQueryClient();
  prefetchOpenedPage(queryClient, location.pathname, useSession.getState().authToken !== null);
  const language = loadLanguage(useSession.getState().displayLang).catch(() => undefined);
  return { queryClient, language };
}
