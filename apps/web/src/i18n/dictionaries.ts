import type { Language } from '@kadai/contracts';
import type enUS from './en-US.json';

/** One language's texts; the English file is the shape both follow (the parity test keeps ja.json in step). */
export type Dictionary = typeof enUS;

/**
 * Each language's whole dictionary, a chunk of its own. The app shows the texts of the parts it has
 * loaded (`TEXTS` of `virtual:kadai-texts`: the shell's and each opened page's, vite-page-texts.ts); the
 * whole dictionary comes only when a text is missing from them (i18n/index.ts).
 */
export const DICTIONARIES: Record<Language, () => Promise<{ default: Dictionary }>> = {
  ja: () => import('./ja.json'),
  'en-US': () => import('./en-US.json'),
};
