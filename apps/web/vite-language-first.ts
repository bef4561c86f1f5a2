// The shown language's dictionary is a chunk of its own (src/i18n/dictionaries.ts). Left to the app's
// entry, its download would start only once all of the entry's modules had arrived and run. This plugin
// builds src/language.ts, a few hundred bytes that start it, as an entry of its own and names it in
// index.html before the app's script: module scripts are fetched at once and run in document order, so
// the dictionary downloads beside the app's code.
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

const NAME = 'language';

/** The file name of the chunk the plugin emitted, in a finished bundle. */
export function languageChunkFile(bundle: Rolldown.OutputBundle): string {
  const chunk = Object.values(bundle).find(
    (item) => item.type === 'chunk' && item.isEntry && item.name === NAME,
  );
  if (!chunk) throw new Error('languageFirst: the language chunk is missing from the bundle');
  return chunk.fileName;
}

export function languageFirst(source: string): Plugin {
  return {
    name: 'kadai-language-first',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: path.resolve(import.meta.dirname, source), name: NAME });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        const app = html.indexOf('<script type="module"');
        if (app < 0) throw new Error('languageFirst: index.html has no app script to go before');
        const script = `<script type="module" crossorigin src="/${languageChunkFile(context.bundle)}"></script>\n    `;
        return html.slice(0, app) + script + html.slice(app);
      },
    },
  };
}
