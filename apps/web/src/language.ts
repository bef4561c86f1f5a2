// index.html's first script, a few hundred bytes: it asks for the shown language's dictionary while the
// app's code (the second script, main.tsx) is still downloading, so neither waits for the other. The
// app's own request for the dictionary gets the same module.
import { storedDisplayLanguage } from './features/auth/stored-session.ts';
import { DICTIONARIES } from './i18n/dictionaries.ts';

void DICTIONARIES[storedDisplayLanguage()]().catch(() => undefined);
