import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { languageChunkFile } from '../../vite-language-first.ts';

const chunk = (fileName: string, name: string, isEntry: boolean) => ({
  type: 'chunk',
  fileName,
  name,
  isEntry,
});

describe('the script index.html runs before the app', () => {
  it('is the language entry the build emitted', () => {
    const bundle = {
      a: chunk('assets/index-1.js', 'index', true),
      b: chunk('assets/ja-2.js', 'ja', false),
      c: chunk('assets/language-3.js', 'language', true),
    } as unknown as Rolldown.OutputBundle;
    expect(languageChunkFile(bundle)).toBe('assets/language-3.js');
  });

  it('fails the build when it is missing, rather than shipping a page without it', () => {
    const bundle = { a: chunk('assets/index-1.js', 'index', true) } as unknown as Rolldown.OutputBundle;
    expect(() => languageChunkFile(bundle)).toThrow(/missing/);
  });
});
