import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { syncSessionAcrossTabs, useSession } from './features/auth/session.ts';
import { loadLanguage } from './i18n/index.ts';

syncSessionAcrossTabs();

// The shown language's dictionary began downloading beside this code (src/boot.ts); the app renders
// once it is there, or without it (keys in place of texts) rather than not at all.
void loadLanguage(useSession.getState().displayLang)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
