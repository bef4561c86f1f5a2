// A few hundred bytes that must run before the app's code (src/boot.ts: start the shown language's
// dictionary, configure zod). Left to the app's entry, they would run only once all of its modules had
// arrived and been evaluated. This plugin builds the file as an entry of its own and names it in
// index.html before the app's script: module scripts are fetched at once and run in document order.
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

const NAME = 'boot';

/** The file name of the chunk the plugin emitted, in a finished bundle. */
export function bootChunkFile(bundle: Rolldown.OutputBundle): string {
  const chunk = Object.values(bundle).find(
    (item) => item.type === 'chunk' && item.isEntry && item.name === NAME,
  );
  if (!chunk) throw new Error('bootScript: the boot chunk is missing from the bundle');
  return chunk.fileName;
}

export function bootScript(source: string): Plugin {
  return {
    name: 'kadai-boot-script',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: path.resolve(import.meta.dirname, source), name: NAME });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        const app = html.indexOf('<script type="module"');
        if (app < 0) throw new Error('bootScript: index.html has no app script to go before');
        const script = `<script type="module" crossorigin src="/${bootChunkFile(context.bundle)}"></script>\n    `;
        return html.slice(0, app) + script + html.slice(app);
      },
    },
  };
}
