import type { Language } from '@kadai/contracts';
import type enUS from './en-US.json';

/** One language's texts; the English file is the shape both follow (the parity test keeps ja.json in step). */
export type Dictionary = typeof enUS;

/**
 * Each language's dictionary is a chunk of its own, loaded when that language is shown: a page load
 * downloads one of them, and switching languages downloads the other. Importing the same dictionary
 * twice gives the one module, so the entry can start the download before the app's code has arrived.
 */
export const DICTIONARIES: Record<Language, () => Promise<{ default: Dictionary }>> = {
  ja: () => import('./ja.json'),
  'en-US': () => import('./en-US.json'),
};
