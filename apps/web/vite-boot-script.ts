// A few hundred bytes that must run before the app's code (src/boot.ts: start the shown language's
// dictionary and the page being opened, configure zod). Left to the app's entry, they would run only
// once all of its modules had arrived and been evaluated. This plugin builds the file as an entry of its
// own and names it in index.html before the app's script: module scripts are fetched at once and run in
// document order.
//
// It also shapes the chunks: every module the app's entry imports statically (the first screen's code,
// Rolldown's `$initial` tag) goes into one chunk, except the boot script's own few, and the pages'
// small shared pieces are copied into the pages. Left to the automatic splitting, the shell came as ~25
// chunks and a page as up to 17 more (one per set of pages sharing a module), each a request with its
// headers and, over HTTP/1.1, a turn in one of six connections (docs/first-load.md).
//
// The app's entry starts in stages (src/main.tsx): it imports each stage's modules dynamically, so that
// each is evaluated in a task of its own. Those modules are the first screen's too: src/app/first-screen.ts
// imports them statically and is emitted as an entry nobody loads, which makes them `$initial` and puts
// them in the one chunk; checkStagesInline fails the build should one become a chunk of its own.
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

const NAME = 'boot';

/**
 * What the chunks the boot chunk imports statically may weigh in all, brotli-compressed as they go out;
 * more means it took in the app's code (the page table and the route patterns are about 3 KB).
 */
export const BOOT_IMPORTS_LIMIT_BYTES = 6 * 1024;

/**
 * Automatic shared chunks smaller than this (source bytes, before minifying) go into their users. At
 * 8 KB the assignment and the quiz pages still asked for 19–22 scripts, over HTTP/1.1's six connections;
 * at 32 KB for 13–14, and Lighthouse's mobile LCP fell by 210–230 ms on both (three rounds in turns).
 * The copies make all the chunks together 30 % larger (768 → 995 KB brotli): a later page brings again
 * some of the Mantine inputs an earlier one had; the first screen of each page is no larger.
 */
const INLINE_COMMON_CHUNKS_BELOW_BYTES = 32 * 1024;

const STYLE_MODULE = /\.(?:css|scss|sass|less|styl|stylus|pcss|postcss|sss)(?:\?|$)/u;

/** The file name of the chunk the plugin emitted, in a finished bundle. */
export function bootChunkFile(bundle: Rolldown.OutputBundle): string {
  return bootChunk(bundle).fileName;
}

function bootChunk(bundle: Rolldown.OutputBundle): Rolldown.OutputChunk {
  const chunk = Object.values(bundle).find(
    (item): item is Rolldown.OutputChunk => item.type === 'chunk' && item.isEntry && item.name === NAME,
  );
  if (!chunk) throw new Error('bootScript: the boot chunk is missing from the bundle');
  return chunk;
}

/**
 * Fails the build when the boot chunk would wait for more than a few KB of other chunks (say, because
 * a module it imports also went into the app's chunk): it would no longer run before the app's code.
 */
export function checkBootImports(bundle: Rolldown.OutputBundle): void {
  const boot = bootChunk(bundle);
  const imported = boot.imports.map((file) => {
    const item = bundle[file];
    return { file, bytes: item?.type === 'chunk' ? brotliCompressSync(item.code).byteLength : 0 };
  });
  const total = imported.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total > BOOT_IMPORTS_LIMIT_BYTES) {
    const list = imported.map(({ file, bytes }) => `${file} (${bytes} bytes)`).join(', ');
    throw new Error(`bootScript: the boot chunk imports ${total} bytes (brotli) before it can run: ${list}`);
  }
}

/**
 * Fails the build when a module of the stages of the app's start (those the entry imports dynamically) is not in
 * the chunk that holds the app's entry (or the boot script's): its stage would wait for a request.
 */
export function checkStagesInline(
  bundle: Rolldown.OutputBundle,
  entry: string,
  stages: readonly string[],
): void {
  const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const home = chunks.find((chunk) => chunk.moduleIds.includes(entry));
  if (!home) throw new Error(`bootScript: no chunk holds the app's entry ${entry}`);
  const loaded = new Set([...home.moduleIds, ...bootChunk(bundle).moduleIds]);
  const apart = stages.filter((id) => !loaded.has(id));
  if (apart.length > 0) {
    throw new Error(`bootScript: these stages of the start are not in the app's chunk: ${apart.join(', ')}`);
  }
}

/** Every module reachable from `root` by static imports, by the module graph of the finished build. */
function staticGraph(root: string, importsOf: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [root];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...importsOf(id));
  }
  return seen;
}

/** index.html as built: the boot script first, then the app's. */
export function placeScripts(html: string, bootFile: string): string {
  const app = html.indexOf('<script type="module"');
  if (app < 0) throw new Error('bootScript: index.html has no app script to go before');
  const script = `<script type="module" crossorigin src="/${bootFile}"></script>\n    `;
  return html.slice(0, app) + script + html.slice(app);
}

export function bootScript(source: string, appEntry: string, firstScreen: string): Plugin {
  const bootId = path.resolve(import.meta.dirname, source);
  const appId = path.resolve(import.meta.dirname, appEntry);
  const firstScreenId = path.resolve(import.meta.dirname, firstScreen);
  let bootModules = new Set<string>();
  let stages: readonly string[] = [];
  return {
    name: 'kadai-boot-script',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: bootId, name: NAME });
      this.emitFile({ type: 'chunk', id: firstScreenId, name: 'first-screen' });
    },
    buildEnd() {
      bootModules = staticGraph(bootId, (id) => this.getModuleInfo(id)?.importedIds ?? []);
      stages = this.getModuleInfo(appId)?.dynamicallyImportedIds ?? [];
    },
    outputOptions(options) {
      const initial: Rolldown.CodeSplittingGroup = {
        name: 'web',
        tags: ['$initial'],
        // Only the app's own initial modules: boot's (also imported by the app) stay in a small chunk
        // of their own, which checkBootImports makes sure of.
        includeDependenciesRecursively: false,
        test: (id) => !bootModules.has(id),
      };
      // The boot script's modules the app imports too (the page table, the stored session) in one
      // chunk of their own, shared by both: left to the splitting, they came as a chunk per set of
      // importers, or were copied into the boot chunk and the app's (sent twice, run twice).
      const bootShared: Rolldown.CodeSplittingGroup = {
        name: 'pages',
        includeDependenciesRecursively: false,
        test: (id) => bootModules.has(id) && id !== bootId,
      };
      return {
        ...options,
        codeSplitting: {
          groups: [initial, bootShared],
          // The pages' small shared pieces (a Mantine input, an icon, a query module) are copied into
          // the pages that use them rather than each being a request: the forum page asked for 17
          // chunks of 0.6–6 KB. Copies make a later page a few KB larger; 32 KB of source each at most.
          // A shared runtime keeps one state per module across the copies. Chunks holding styles stay
          // files (Rolldown's advice for Vite, whose CSS plugin would emit their CSS from every copy).
          experimentalInlineCommonChunks: {
            maxSize: INLINE_COMMON_CHUNKS_BELOW_BYTES,
            exclude: STYLE_MODULE,
          },
        },
        // Required by the inlining: each module runs when first needed, in the order of the source.
        strictExecutionOrder: true,
      };
    },
    onLog(_level, log) {
      // The app's entry imports the stages of its start dynamically, on purpose from its own chunk.
      if (
        log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' &&
        log.message.includes(`dynamically imported by ${appEntry} but`)
      )
        return false;
      return undefined;
    },
    generateBundle(_options, bundle) {
      checkBootImports(bundle);
      checkStagesInline(bundle, appId, stages);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        return placeScripts(html, bootChunkFile(context.bundle));
      },
    },
  };
}
