// Brotli and gzip copies of the built web app's text files, made once at build and served by the API
// (@fastify/static's `preCompressed`) in place of the file when the browser accepts them, so no request
// pays for compressing them and they get brotli's best quality, too slow to run per request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files smaller than this are sent as they are (the API's on-the-fly threshold is the same). */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Text the browser fetches; images, fonts and the like are compressed formats already. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/u;
/**
 * Source maps, fetched only by open developer tools: gzip at level 9 only. Brotli's quality 11 costs
 * about 18 s of CPU for the ~9 MB of maps (2 s for all the code), for 15 % fewer bytes than gzip.
 */
const SOURCE_MAP = /\.map$/u;

export interface PrecompressResult {
  /** Files that got a compressed copy (one or both encodings), and their size. */
  files: number;
  bytes: number;
  /** What a browser that accepts brotli receives of them (source maps: their gzip copy). */
  brotliBytes: number;
  /** What a browser that accepts gzip only receives of them. */
  gzipBytes: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside each text file of `dir` of
 * at least PRECOMPRESS_MIN_BYTES, each only when it is smaller than the file; source maps get gzip only.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const files = (await listFiles(dir)).filter((file) => TEXT_FILE.test(file) || SOURCE_MAP.test(file));
  // node:zlib's asynchronous calls run on libuv's thread pool: every core works on a file at a time.
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) return;
      const content = await readFile(file);
      const isMap = SOURCE_MAP.test(file);
      const [br, gz] = await Promise.all([
        isMap
          ? null
          : brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      const isBrSmaller = br !== null && br.length < content.length;
      const isGzSmaller = gz.length < content.length;
      if (isBrSmaller) await writeFile(`${file}.br`, br);
      if (isGzSmaller) await writeFile(`${file}.gz`, gz);
      if (!isBrSmaller && !isGzSmaller) return;
      result.files += 1;
      result.bytes += content.length;
      const gzipped = isGzSmaller ? gz.length : content.length;
      result.brotliBytes += isBrSmaller ? br.length : gzipped;
      result.gzipBytes += gzipped;
    }),
  );
  return result;
}

/** The Vite plugin: compresses the output folder once the bundle is written (`vite build` only). */
export function precompress(): Plugin {
  let logger: Logger | null = null;
  return {
    name: 'kadai-precompress',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(output) {
        if (!output.dir) return;
        const started = performance.now();
        const made = await precompressDirectory(output.dir);
        const kb = (bytes: number) => `${Math.round(bytes / 1024)} kB`;
        logger?.info(
          `precompressed ${made.files} files in ${Math.round(performance.now() - started)} ms: ` +
            `${kb(made.bytes)} → ${kb(made.brotliBytes)} with brotli, ${kb(made.gzipBytes)} with gzip`,
        );
      },
    },
  };
}
