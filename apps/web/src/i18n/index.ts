import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@kadai/contracts';
import { useSession } from '../features/auth/session.ts';
import enUS from './en-US.json';
import ja from './ja.json';

export const LANGUAGES: readonly Language[] = ['ja', 'en-US'];

/** Each language named in itself, so a reader of either finds their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { ja: '日本語', 'en-US': 'English' };

export const resources = {
  ja: { translation: ja },
  'en-US': { translation: enUS },
} as const;

function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: useSession.getState().displayLang,
  fallbackLng: 'ja',
  supportedLngs: LANGUAGES,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyDocumentLanguage(useSession.getState().displayLang);

// The stored display language drives the interface; the header switcher only writes the store.
useSession.subscribe((state, previous) => {
  if (state.displayLang !== previous.displayLang) {
    void i18n.changeLanguage(state.displayLang);
    applyDocumentLanguage(state.displayLang);
  }
});

export { i18n };
