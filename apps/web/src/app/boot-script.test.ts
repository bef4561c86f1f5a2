import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  BOOT_IMPORTS_LIMIT_BYTES,
  bootChunkFile,
  checkBootImports,
  checkStagesInline,
  placeScripts,
} from '../../vite-boot-script.ts';

const chunk = (fileName: string, name: string, isEntry: boolean, imports: string[] = [], code = '') => ({
  type: 'chunk',
  fileName,
  name,
  isEntry,
  imports,
  code,
});

// Text that brotli cannot shrink much: its size on the wire is about its length.
function incompressible(bytes: number): string {
  let state = 1;
  let text = '';
  while (text.length < bytes) {
    state = (state * 48271) % 2147483647;
    text += String.fromCharCode(33 + (state % 90));
  }
  return text;
}

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

  it('goes before the app script in index.html', () => {
    const html = '<head>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n</head>';
    const placed = placeScripts(html, 'assets/boot-3.js');
    expect(placed.indexOf('/assets/boot-3.js')).toBeGreaterThan(0);
    expect(placed.indexOf('/assets/boot-3.js')).toBeLessThan(placed.indexOf('/assets/index-1.js'));
    expect(() => placeScripts('<head></head>', 'assets/boot-3.js')).toThrow(/no app script/);
  });

  it('fails the build when it would wait for the app’s code (a module of its own went into the app’s chunk)', () => {
    const bundle = (importedBytes: number) =>
      ({
        'assets/boot-3.js': chunk('assets/boot-3.js', 'boot', true, ['assets/shared-4.js']),
        'assets/shared-4.js': chunk('assets/shared-4.js', 'shared', false, [], incompressible(importedBytes)),
      }) as unknown as Rolldown.OutputBundle;
    expect(() => checkBootImports(bundle(BOOT_IMPORTS_LIMIT_BYTES / 2))).not.toThrow();
    expect(() => checkBootImports(bundle(BOOT_IMPORTS_LIMIT_BYTES * 2))).toThrow(/imports \d+ bytes/);
  });
});

describe('the stages of the app’s start', () => {
  const withModules = (fileName: string, name: string, isEntry: boolean, moduleIds: string[]) => ({
    ...chunk(fileName, name, isEntry),
    moduleIds,
  });
  const bundle = (appModules: string[]) =>
    ({
      'assets/boot-1.js': withModules('assets/boot-1.js', 'boot', true, [
        '/src/boot.ts',
        '/src/app/pages.ts',
      ]),
      'assets/web-2.js': withModules('assets/web-2.js', 'web', false, ['/src/main.tsx', ...appModules]),
      'assets/App-3.js': withModules('assets/App-3.js', 'App', false, ['/src/app/App.tsx']),
    }) as unknown as Rolldown.OutputBundle;
  const stages = ['/src/app/start-data.ts', 'react-dom/client', '/src/app/App.tsx'];

  it('are in the chunk that holds the app’s entry, where each stage finds them loaded', () => {
    const inline = bundle(['/src/app/start-data.ts', 'react-dom/client', '/src/app/App.tsx']);
    expect(() => checkStagesInline(inline, '/src/main.tsx', stages)).not.toThrow();
  });

  it('fail the build when one became a chunk of its own (a request in the middle of the start)', () => {
    const apart = bundle(['/src/app/start-data.ts', 'react-dom/client']);
    expect(() => checkStagesInline(apart, '/src/main.tsx', stages)).toThrow(
      /not in the app's chunk: \/src\/app\/App.tsx/,
    );
    expect(() => checkStagesInline(apart, '/src/elsewhere.tsx', stages)).toThrow(/no chunk holds/);
  });
});
