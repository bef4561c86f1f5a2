import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { prefetchOpenedPage } from './app/page-data.ts';
import { createQueryClient } from './app/query-client.ts';
import { syncSessionAcrossTabs, useSession } from './features/auth/session.ts';
import { loadLanguage } from './i18n/index.ts';

syncSessionAcrossTabs();

// The opened page's first API calls start now, beside the dictionary, not once the shell is drawn.
const queryClient = createQueryClient();
prefetchOpenedPage(queryClient, location.pathname, useSession.getState().authToken !== null);

// The shown language's dictionary began downloading beside this code (src/boot.ts); the app renders
// once it is there, or without it (keys in place of texts) rather than not at all.
void loadLanguage(useSession.getState().displayLang)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    startTransition(() => {
      root.render(
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      );
    });
  });
