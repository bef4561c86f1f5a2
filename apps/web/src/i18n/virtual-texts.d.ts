// The loaders of the texts of each part of the app, cut from the dictionaries at build
// (vite-page-texts.ts); texts.ts gives them their precise type.
declare module 'virtual:kadai-texts' {
  /** What a part's module holds: a piece of the dictionary, in its shape. */
  export interface Texts {
    [key: string]: string | Texts;
  }
  export const TEXTS: Record<string, Record<string, () => Promise<{ default: Texts }>>>;
}
