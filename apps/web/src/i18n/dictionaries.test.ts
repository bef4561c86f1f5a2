import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../features/auth/session.ts';
import { storedColorScheme, storedDisplayLanguage } from '../features/auth/stored-session.ts';
import { DICTIONARIES } from './dictionaries.ts';
import enUS from './en-US.json';
import { addDictionary, forgetTexts, i18n } from './index.ts';
import ja from './ja.json';

const storage = (value: string | null) => ({ getItem: () => value });
const stored = (state: unknown) => storage(JSON.stringify({ state, version: 1 }));

describe('one dictionary per language', () => {
  it('loads each language from its own module', async () => {
    expect((await DICTIONARIES.ja()).default).toEqual(ja);
    expect((await DICTIONARIES['en-US']()).default).toEqual(enUS);
  });

  it('reads the stored display language before the session store exists', () => {
    expect(storedDisplayLanguage(stored({ displayLang: 'en-US' }))).toBe('en-US');
    expect(storedDisplayLanguage(stored({ displayLang: 'ja' }))).toBe('ja');
  });

  it('falls back to Japanese for no session, a broken one, or an unknown language', () => {
    expect(storedDisplayLanguage(storage(null))).toBe('ja');
    expect(storedDisplayLanguage(storage('{not json'))).toBe('ja');
    expect(storedDisplayLanguage(stored({ displayLang: 'fr' }))).toBe('ja');
    expect(storedDisplayLanguage(stored({ displayLang: 'toString' }))).toBe('ja');
    expect(storedDisplayLanguage(storage('null'))).toBe('ja');
    expect(storedDisplayLanguage(stored(null))).toBe('ja');
  });
});

describe('the stored colour scheme, read before the app', () => {
  it('is dark only when the stored session says so', () => {
    expect(storedColorScheme(stored({ isDarkMode: true }))).toBe('dark');
    expect(storedColorScheme(stored({ isDarkMode: false }))).toBe('light');
    expect(storedColorScheme(stored({ isDarkMode: 'yes' }))).toBe('light');
    expect(storedColorScheme(storage(null))).toBe('light');
    expect(storedColorScheme(storage('{not json'))).toBe('light');
  });
});

describe('switching languages', () => {
  afterEach(async () => {
    useSession.getState().setDisplayLang('ja');
    await vi.waitFor(() => expect(i18n.language).toBe('ja'));
    addDictionary('en-US', enUS);
  });

  it('downloads the other dictionary first, then shows its texts', async () => {
    // As on a page loaded in Japanese: the English texts have not been downloaded.
    forgetTexts('en-US');
    useSession.getState().setDisplayLang('en-US');
    expect(i18n.language).toBe('ja');
    await vi.waitFor(() => expect(i18n.language).toBe('en-US'));
    expect(i18n.t('common.close')).toBe(enUS.common.close);
    expect(document.documentElement.lang).toBe('en-US');
  });

  it('switches at once to a language already downloaded', () => {
    useSession.getState().setDisplayLang('en-US');
    expect(i18n.language).toBe('en-US');
    expect(i18n.t('common.close')).toBe(enUS.common.close);
  });
});
