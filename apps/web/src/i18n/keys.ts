import type { ParseKeys } from 'i18next';

/** Any key of the translation files, for values that carry a key to be translated later (titles, labels). */
export type TranslationKey = ParseKeys<'translation'>;
