// index.html's first script, a few hundred bytes, run before the app's own (vite-boot-script.ts):
//  - it asks for the shown language's texts, the shell's and the opened page's (vite-page-texts.ts),
//    while the app's code is still downloading, so neither waits for the other (the app's own requests
//    for them get the same modules);
//  - it puts the stored colour scheme on <html> (the attribute Mantine's CSS keys on), so the header
//    index.html draws before the app arrives is already dark for a reader who chose dark;
//  - it starts loading the page being opened (app/pages.ts), which the app would otherwise ask for only
//    once its own code had arrived, run and drawn the shell;
//  - it tells zod, before the first schema is made, never to compile parsers with `new Function`: the
//    Content-Security-Policy forbids eval, and zod's one try at it (made as the first object schema is
//    built, before the app could call z.config) is reported as a violation on every page.
import { PAGES, pageToOpen } from './app/pages.ts';
import { storedColorScheme, storedDisplayLanguage, storedSignedIn } from './features/auth/stored-session.ts';
import { TEXTS } from './i18n/texts.ts';

const zodHolder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodHolder.__zod_globalConfig = { ...zodHolder.__zod_globalConfig, jitless: true };

document.documentElement.setAttribute('data-mantine-color-scheme', storedColorScheme());

const texts = TEXTS[storedDisplayLanguage()];
void texts.shell().catch(() => undefined);

const page = pageToOpen(location.pathname, storedSignedIn());
if (page !== null) {
  void PAGES[page]().catch(() => undefined);
  void texts[page]().catch(() => undefined);
}
