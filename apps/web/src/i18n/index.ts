import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@kadai/contracts';
import { useSession } from '../features/auth/session.ts';
import { DICTIONARIES } from './dictionaries.ts';

export const LANGUAGES: readonly Language[] = ['ja', 'en-US'];

/** Each language named in itself, so a reader of either finds their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { ja: '日本語', 'en-US': 'English' };

function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

// No dictionary at first: `loadLanguage` adds the one shown (main.tsx waits for it before rendering).
void i18n.use(initReactI18next).init({
  resources: {},
  lng: useSession.getState().displayLang,
  fallbackLng: false,
  supportedLngs: LANGUAGES,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyDocumentLanguage(useSession.getState().displayLang);

/** Makes `language`'s texts available (downloading its dictionary the first time); resolves when they are. */
export async function loadLanguage(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const { default: dictionary } = await DICTIONARIES[language]();
  i18n.addResourceBundle(language, 'translation', dictionary);
}

function showLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

// The stored display language drives the interface; the header switcher only writes the store. The
// texts change once the language's dictionary is there (at once when it already is).
useSession.subscribe((state, previous) => {
  const language = state.displayLang;
  if (language === previous.displayLang) return;
  if (i18n.hasResourceBundle(language, 'translation')) {
    showLanguage(language);
    return;
  }
  loadLanguage(language).then(
    () => {
      if (useSession.getState().displayLang === language) showLanguage(language);
    },
    // Offline or a deployment replaced the chunk: the interface stays in the language it has.
    () => undefined,
  );
});

export { i18n };
