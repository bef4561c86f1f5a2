// The app's start, in stages. Its code arrives as one chunk (vite-boot-script.ts), but evaluating all of
// its modules at once was the longest task of a page's load: 0.2 s on this box, four times that on
// Lighthouse's phone. Each stage's modules are evaluated in a task of its own (a module is evaluated the
// first time it is imported), so the browser can paint and answer input between them:
//  1. the session, the server state and the opened page's first API calls (app/start-data.ts);
//  2. the formatters of dates and numbers: the first loads the ICU's data (~25 ms here), which would
//     otherwise land in the render that draws the page's first date;
//  3. React's renderer;
//  4. the app: Mantine, the router, the layout (app/App.tsx);
// then the first render, itself cut into slices (a transition).
import { yieldToMain } from './app/yield-to-main.ts';

async function start(): Promise<void> {
  const { startData } = await import('./app/start-data.ts');
  const { queryClient, language } = startData();
  await yieldToMain();
  const [{ prepareFormatters }, { useSession }] = await Promise.all([
    import('./i18n/format.ts'),
    import('./features/auth/session.ts'),
  ]);
  // The sign-in page shows no dates or numbers.
  if (useSession.getState().authToken !== null) prepareFormatters(useSession.getState().displayLang);
  await yieldToMain();
  const { createRoot } = await import('react-dom/client');
  await yieldToMain();
  const [{ StrictMode, startTransition }, { App }] = await Promise.all([
    import('react'),
    import('./app/App.tsx'),
  ]);
  // The shown language's dictionary began downloading beside this code (src/boot.ts); the app renders
  // once it is there, or without it (keys in place of texts) rather than not at all.
  await language;
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    );
  });
}

void start();
