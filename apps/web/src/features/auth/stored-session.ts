import type { Language } from '@kadai/contracts';
import { DICTIONARIES } from '../../i18n/dictionaries.ts';

/** The session's key in localStorage (the store in session.ts persists there). */
export const SESSION_STORAGE_KEY = 'kadai-session';

/**
 * The display language the stored session names, read without the session store (so the entry can
 * start downloading its dictionary before the store's code has arrived); Japanese when there is none.
 */
export function storedDisplayLanguage(storage: Pick<Storage, 'getItem'> = localStorage): Language {
  try {
    const stored = JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null') as {
      state?: { displayLang?: unknown };
    } | null;
    const language = stored?.state?.displayLang;
    return typeof language === 'string' && Object.hasOwn(DICTIONARIES, language)
      ? (language as Language)
      : 'ja';
  } catch {
    return 'ja';
  }
}
