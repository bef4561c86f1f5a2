import type { Language } from '@kadai/contracts';
import { DICTIONARIES } from '../../i18n/dictionaries.ts';

/** The session's key in localStorage (the store in session.ts persists there). */
export const SESSION_STORAGE_KEY = 'kadai-session';

/**
 * The display language the stored session names, read without the session store (so the entry can
 * start downloading its dictionary before the store's code has arrived); Japanese when there is none.
 */
export function storedDisplayLanguage(storage: Pick<Storage, 'getItem'> = localStorage): Language {
  const language = storedState(storage)?.displayLang;
  return typeof language === 'string' && Object.hasOwn(DICTIONARIES, language)
    ? (language as Language)
    : 'ja';
}

/** The colour scheme the stored session names (light when there is none), read the same way. */
export function storedColorScheme(storage: Pick<Storage, 'getItem'> = localStorage): 'light' | 'dark' {
  return storedState(storage)?.isDarkMode === true ? 'dark' : 'light';
}

/** Whether the stored session holds an access token (what RequireAuth asks), read the same way. */
export function storedSignedIn(storage: Pick<Storage, 'getItem'> = localStorage): boolean {
  const token = storedState(storage)?.authToken;
  return typeof token === 'string' && token !== '';
}

function storedState(storage: Pick<Storage, 'getItem'>): Record<string, unknown> | null {
  try {
    const stored = JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null') as {
      state?: unknown;
    } | null;
    const state = stored?.state;
    return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
