// markdown-it imports the `entities` package for one function, the decoding of named character
// references, which carries HTML's whole table of names (14 KB brotli). In the web build and the web
// tests, markdown-it gets src/ui/html-entities.ts in its place, which asks the browser's HTML parser.
// Should markdown-it import another name from `entities`, the build fails on the missing export.
import path from 'node:path';
import type { Plugin } from 'vite';

const MARKDOWN_IT = /[\\/]markdown-it[\\/]/u;

/** The file that stands in for `entities` in `importer`, or null where the real one is used. */
export function markdownEntitiesTarget(source: string, importer: string | undefined): string | null {
  if (source !== 'entities' || importer === undefined || !MARKDOWN_IT.test(importer)) return null;
  return path.resolve(import.meta.dirname, 'src/ui/html-entities.ts');
}

export function markdownEntities(): Plugin {
  return {
    name: 'kadai-markdown-entities',
    enforce: 'pre',
    resolveId(source, importer) {
      return markdownEntitiesTarget(source, importer);
    },
  };
}
