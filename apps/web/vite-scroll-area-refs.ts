// Mantine's ScrollArea imports one hook, `useMergeRefs`, from @floating-ui/react. Every dialog has a
// ScrollArea (ModalsProvider → Modal), so that import put @floating-ui — one module, with all of it the
// app's menus, popovers and tooltips use, ~40 KB minified — into the first screen's code. This plugin
// gives ScrollArea (and only it) the same hook from src/ui/merge-refs.ts; @floating-ui then loads with
// the pages and controls that use it. Should ScrollArea import another name from @floating-ui, the
// build fails on the missing export rather than shipping a broken dialog.
import path from 'node:path';
import type { Plugin } from 'vite';

const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/u;

/** The file that stands in for @floating-ui/react in `importer`, or null where the real one is used. */
export function scrollAreaRefsTarget(source: string, importer: string | undefined): string | null {
  if (source !== '@floating-ui/react' || importer === undefined || !SCROLL_AREA.test(importer)) return null;
  return path.resolve(import.meta.dirname, 'src/ui/merge-refs.ts');
}

export function scrollAreaRefs(): Plugin {
  return {
    name: 'kadai-scroll-area-refs',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return scrollAreaRefsTarget(source, importer);
    },
  };
}
