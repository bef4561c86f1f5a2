import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { prefetchOpenedPage } from './app/page-data.ts';
import { createQueryClient } from './app/query-client.ts';
import { syncSessionAcrossTabs, useSession } from './features/auth/session.ts';
import { prepareFormatters } from './i18n/format.ts';
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
    // The ICU's data loads while the page's first answers travel, not in the render that shows them.
    const prepare = () => prepareFormatters(useSession.getState().displayLang);
    if ('requestIdleCallback' in window) requestIdleCallback(prepare, { timeout: 2000 });
    else setTimeout(prepare, 0);
  });
