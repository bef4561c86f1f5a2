import zlib, { constants, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Settings for answers over @fastify/compress's `syncThreshold` (8 KB on two cores, 4 KB on more, 64 KB
 * on one), which it compresses as a stream on libuv's thread pool: brotli's quality 4 (the plugin's
 * default) and gzip's default level. The 713 KB assessment table becomes 77 KB with brotli (61 KB at 5,
 * for twice the CPU; 11, what the built web app's files get once at build, costs tens of times more).
 */
export const STREAMED_BROTLI: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
export const STREAMED_GZIP: ZlibOptions = { level: constants.Z_DEFAULT_COMPRESSION };

/**
 * Settings for the smaller answers, compressed in one call on the event loop: the cheapest of each. At
 * these sizes every quality gives nearly the same bytes (the 20-row course page: 5,357 bytes → 331 with
 * brotli 1, 286 with 4), far fewer than the answer's headers, while the CPU is what every request pays:
 * brotli 4 cost two to three times brotli 1 there (docs/performance.md, "Compression").
 * Less memory changes nothing measurable (2026-11-27, in the API and in a loop): at qualities 0 and 1
 * brotli sizes its buffers by the answer, not by its window (BROTLI_PARAM_LGWIN 18 and a size hint gave
 * the same CPU), and gzip's smaller windowBits and memLevel neither. What a call costs is the call: a
 * stream and a native encoder built and torn down (about 4 µs), then the compression itself (about 7 µs
 * for the 20-row page).
 */
export const IN_ONE_CALL_BROTLI: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
export const IN_ONE_CALL_GZIP: ZlibOptions = { level: constants.Z_BEST_SPEED };

/**
 * What the plugin compresses with: its one-call path takes these two functions (the plugin prefers a
 * given `zlib`'s own synchronous methods), its streams fall back to node:zlib's with the options above.
 * compression.test.ts checks that a small answer is exactly these functions' output.
 */
const zlibForAnswers = {
  brotliCompressSync: (payload: Buffer) => zlib.brotliCompressSync(payload, IN_ONE_CALL_BROTLI),
  gzipSync: (payload: Buffer) => zlib.gzipSync(payload, IN_ONE_CALL_GZIP),
};

/**
 * What is worth compressing: JSON (the API's answers, exported notebooks), text (CSV exports, the calendar
 * feed) but not `text/event-stream`, XML, JavaScript and SVG. Not `application/octet-stream`, which
 * @fastify/compress's own default includes: bytes of an unknown kind are usually compressed already.
 * Other types fall back to mime-db's `compressible` flag (images, zip and video are not).
 */
const COMPRESSIBLE_TYPES =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml|javascript)(?:;|$)|image\/svg\+xml)/u;

/**
 * Compresses, on the fly, every answer over 1 KB of a compressible type to a client that accepts brotli
 * or gzip (with `Vary: Accept-Encoding`), for the routes registered after this in `app`'s context.
 *
 * Left out: partial answers (206, `Content-Range`: ranges count the bytes as stored) and whatever already
 * has a `Content-Encoding`; routes that send stored files as they are (downloads and videos) opt out with
 * `compress: false`, so the client gets their `Content-Length` and the stored bytes. Request bodies are
 * never decompressed: a small gzip body could inflate past the body limit's intent (a zip bomb).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    // Fixed so the answer does not depend on the Node version (zstd appears in node:zlib in Node 22.15).
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: STREAMED_BROTLI,
    zlibOptions: STREAMED_GZIP,
    zlib: zlibForAnswers,
  });
}
