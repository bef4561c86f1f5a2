import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { bootChunkFile } from '../../vite-boot-script.ts';

const chunk = (fileName: string, name: string, isEntry: boolean) => ({
  type: 'chunk',
  fileName,
  name,
  isEntry,
});

describe('the script index.html runs before the app', () => {
  it('is the boot entry the build emitted', () => {
    const bundle = {
      a: chunk('assets/index-1.js', 'index', true),
      b: chunk('assets/ja-2.js', 'ja', false),
      c: chunk('assets/boot-3.js', 'boot', true),
    } as unknown as Rolldown.OutputBundle;
    expect(bootChunkFile(bundle)).toBe('assets/boot-3.js');
  });

  it('fails the build when it is missing, rather than shipping a page without it', () => {
    const bundle = { a: chunk('assets/index-1.js', 'index', true) } as unknown as Rolldown.OutputBundle;
    expect(() => bootChunkFile(bundle)).toThrow(/missing/);
  });
});
