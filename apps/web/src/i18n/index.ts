import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { TEXTS, type TextPart, type Texts } from './texts.ts';
import type { Language } from '@kadai/contracts';
import { useSession } from '../features/auth/session.ts';
import { DICTIONARIES } from './dictionaries.ts';

export const LANGUAGES: readonly Language[] = ['ja', 'en-US'];

/** Each language named in itself, so a reader of either finds their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { ja: '日本語', 'en-US': 'English' };

function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

const isLanguage = (value: string | undefined): value is Language =>
  value !== undefined && (LANGUAGES as readonly string[]).includes(value);

/**
 * The keys a text was asked for before its part had come, in the order asked (each once). The browser
 * journeys read it: a key here is one vite-page-texts.ts did not find in the source that shows it.
 */
export const missingTexts: string[] = [];
(globalThis as { __kadaiMissingTexts?: string[] }).__kadaiMissingTexts = missingTexts;

/** The languages whose whole dictionary is in: every part of them is too. */
const complete = new Set<Language>();

/** Adds a language's whole dictionary (the fallback below, and the tests' set-up). */
export function addDictionary(language: Language, dictionary: Texts): void {
  i18n.addResourceBundle(language, 'translation', dictionary, true, true);
  complete.add(language);
}

/** Each language's whole dictionary, once asked for (a text was missing from the parts). */
const wholeDictionaries = new Map<Language, Promise<void>>();

function loadWholeDictionary(language: Language): Promise<void> {
  let loading = wholeDictionaries.get(language);
  if (!loading) {
    loading = DICTIONARIES[language]().then(({ default: dictionary }) => {
      addDictionary(language, dictionary);
      // Draws again whatever showed a key in place of its text.
      if (i18n.language === language) void i18n.changeLanguage(language);
    });
    // Offline: the next missing text tries again.
    loading.catch(() => wholeDictionaries.delete(language));
    wholeDictionaries.set(language, loading);
  }
  return loading;
}

// No texts at first: `loadLanguage` adds the shell's (main.tsx waits for them before rendering), and
// each page brings its own (`loadPageTexts`).
void i18n.use(initReactI18next).init({
  resources: {},
  lng: useSession.getState().displayLang,
  fallbackLng: false,
  supportedLngs: LANGUAGES,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  // A text missing from the parts loaded: the whole dictionary comes, and the page is drawn again.
  saveMissing: true,
  missingKeyHandler: (languages, _namespace, key) => {
    if (!missingTexts.includes(key)) missingTexts.push(key);
    const language = languages[0];
    if (isLanguage(language)) loadWholeDictionary(language).catch(() => undefined);
  },
});
applyDocumentLanguage(useSession.getState().displayLang);

/** The parts the app has shown so far: the shell's and each opened page's. A new language loads them all. */
const partsInUse = new Set<TextPart>(['shell']);
/** Each part of each language, once asked for (`ja/Login`), and those that are in. */
const loadedParts = new Map<string, Promise<void>>();
const readyParts = new Set<string>();

function loadPart(language: Language, part: TextPart): Promise<void> {
  const key = `${language}/${part}`;
  if (complete.has(language) || readyParts.has(key)) return Promise.resolve();
  let loading = loadedParts.get(key);
  if (!loading) {
    loading = TEXTS[language][part]().then(({ default: texts }) => {
      i18n.addResourceBundle(language, 'translation', texts, true, true);
      readyParts.add(key);
    });
    // Offline, or a deployment replaced the chunk: the next page or switch tries again.
    loading.catch(() => loadedParts.delete(key));
    loadedParts.set(key, loading);
  }
  return loading;
}

/** Whether every part in use of `language` is in. */
function isReady(language: Language): boolean {
  return complete.has(language) || [...partsInUse].every((part) => readyParts.has(`${language}/${part}`));
}

/** Drops a language's texts, as on a page loaded in the other language (for the tests). */
export function forgetTexts(language: Language): void {
  i18n.removeResourceBundle(language, 'translation');
  complete.delete(language);
  wholeDictionaries.delete(language);
  for (const key of [...loadedParts.keys()]) if (key.startsWith(`${language}/`)) loadedParts.delete(key);
  for (const key of [...readyParts]) if (key.startsWith(`${language}/`)) readyParts.delete(key);
}

/** Makes `language`'s texts of every part in use available (downloading them the first time). */
export async function loadLanguage(language: Language): Promise<void> {
  await Promise.all([...partsInUse].map((part) => loadPart(language, part)));
}

/**
 * Makes a page's texts available, in the language chosen and, while a switch is under way, in the one
 * still shown; the page's lazy load waits for them (app/router.tsx).
 */
export async function loadPageTexts(page: TextPart): Promise<void> {
  partsInUse.add(page);
  const languages = new Set([useSession.getState().displayLang, i18n.language].filter(isLanguage));
  await Promise.all([...languages].map((language) => loadPart(language, page)));
}

function showLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

// The stored display language drives the interface; the header switcher only writes the store. The
// texts change once the language's parts in use are there (at once when they already are).
useSession.subscribe((state, previous) => {
  const language = state.displayLang;
  if (language === previous.displayLang) return;
  if (isReady(language)) {
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
