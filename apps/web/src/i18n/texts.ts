import { TEXTS as LOADERS, type Texts } from 'virtual:kadai-texts';
import type { Language } from '@kadai/contracts';
import type { PageName } from '../routes/route-definitions.ts';

export type { Texts };

/** The shell's texts, or a page's (less the shell's): the parts vite-page-texts.ts cuts. */
export type TextPart = 'shell' | PageName;

/**
 * Each part's texts in each language, loaded on demand. The build writes one loader for every language
 * and every page of the pages table (texts.test.ts checks the names), which the type states.
 */
export const TEXTS = LOADERS as Record<Language, Record<TextPart, () => Promise<{ default: Texts }>>>;
