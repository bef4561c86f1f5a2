// Two imports of a dependency that the web build answers with a file of the app's own, each because the
// real one put kilobytes into pages that need almost none of it. One mechanism: a bare import, from one
// importer only, resolved to a stand-in. Should the importer ask the stand-in for a name it lacks, the
// build fails on the missing export rather than shipping something broken.
import path from 'node:path';
import type { Plugin } from 'vite';

interface ImportSwap {
  /** The bare import that is replaced… */
  source: string;
  /** …in the modules whose path this matches… */
  importer: RegExp;
  /** …by this file of the web app. */
  target: string;
}

function targetOf(swap: ImportSwap, source: string, importer: string | undefined): string | null {
  if (source !== swap.source || importer === undefined || !swap.importer.test(importer)) return null;
  return path.resolve(import.meta.dirname, swap.target);
}

function importSwap(name: string, swap: ImportSwap, apply?: 'build'): Plugin {
  return {
    name,
    ...(apply ? { apply } : {}),
    enforce: 'pre',
    resolveId(source, importer) {
      return targetOf(swap, source, importer);
    },
  };
}

// Mantine's ScrollArea imports one hook, `useMergeRefs`, from @floating-ui/react. Every dialog has a
// ScrollArea (ModalsProvider → Modal), so that import put @floating-ui — one module, with all of it the
// app's menus, popovers and tooltips use, ~40 KB minified — into the first screen's code. ScrollArea (and
// only it) gets the same hook from src/ui/merge-refs.ts; @floating-ui then loads with the pages and
// controls that use it. In the build only: the tests run Mantine as published.
const SCROLL_AREA_REFS: ImportSwap = {
  source: '@floating-ui/react',
  importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/u,
  target: 'src/ui/merge-refs.ts',
};

// markdown-it imports the `entities` package for one function, the decoding of named character
// references, which carries HTML's whole table of names (14 KB brotli). markdown-it gets
// src/ui/html-entities.ts in its place, which asks the browser's HTML parser; in the build and in the
// web tests, so that the tests check what the app runs.
const MARKDOWN_ENTITIES: ImportSwap = {
  source: 'entities',
  importer: /[\\/]markdown-it[\\/]/u,
  target: 'src/ui/html-entities.ts',
};

/** The file that stands in for @floating-ui/react in `importer`, or null where the real one is used. */
export const scrollAreaRefsTarget = (source: string, importer: string | undefined) =>
  targetOf(SCROLL_AREA_REFS, source, importer);

/** The file that stands in for `entities` in `importer`, or null where the real one is used. */
export const markdownEntitiesTarget = (source: string, importer: string | undefined) =>
  targetOf(MARKDOWN_ENTITIES, source, importer);

export const scrollAreaRefs = () => importSwap('kadai-scroll-area-refs', SCROLL_AREA_REFS, 'build');
export const markdownEntities = () => importSwap('kadai-markdown-entities', MARKDOWN_ENTITIES);
