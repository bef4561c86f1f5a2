import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { addStudent, createCourse, createUser, tokenFor } from '../../test/factories.ts';
import { createVideoWorld, FAKE_MP4, uploadVideoFile } from '../features/videos/testing.ts';
import { COMPRESSION_THRESHOLD_BYTES, IN_ONE_CALL_BROTLI, IN_ONE_CALL_GZIP } from './compression.ts';
import { signDownload } from './downloads.ts';

/** A built web app as the build leaves it: a brotli and a gzip copy beside each larger text file. */
function writeDist(dir: string, files: Record<string, string>) {
  mkdirSync(path.join(dir, 'assets'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    if (text.length < COMPRESSION_THRESHOLD_BYTES) continue;
    writeFileSync(`${file}.br`, brotliCompressSync(text));
    writeFileSync(`${file}.gz`, gzipSync(text));
  }
}

/** The body as the client reads it: decoded by its Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.rawPayload.toString('utf8');
}

const CHUNK = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const INDEX = `<!doctype html><title>Kadai</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}<div id="root"></div>`;
const TINY = 'console.log(1);\n';
const BROWSER = 'gzip, deflate, br';

describe('compressed answers', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'kadai-dist-'));
    writeDist(dist, { 'index.html': INDEX, 'assets/index-abc123.js': CHUNK, 'assets/tiny-abc123.js': TINY });
    t = await createTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  describe('the built web app, compressed at build', () => {
    it('sends a hashed asset as brotli, gzip or as it is, by Accept-Encoding, cached for a year', async () => {
      for (const [accept, encoding] of [
        [BROWSER, 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['identity', undefined],
        [undefined, undefined],
      ] as const) {
        const res = await get('/assets/index-abc123.js', accept ? { 'accept-encoding': accept } : {});
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(decoded(res), accept).toBe(CHUNK);
        expect(res.headers['content-type'], accept).toBe('application/javascript; charset=utf-8');
        expect(res.headers['content-length'], accept).toBe(String(res.rawPayload.length));
        expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
        expect(res.headers.vary, accept).toBe('accept-encoding');
      }
      expect(
        (await get('/assets/index-abc123.js', { 'accept-encoding': 'br' })).rawPayload.length,
      ).toBeLessThan(CHUNK.length / 3);
    });

    it('sends a file under 1 KB as it is, never compressed per request', async () => {
      const res = await get('/assets/tiny-abc123.js', { 'accept-encoding': BROWSER });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(TINY.length));
      expect(res.body).toBe(TINY);
    });

    it('does not serve the compressed copies under their own names', async () => {
      for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/index.html.br']) {
        const res = await get(url, { 'accept-encoding': BROWSER });
        // Not a file: the single-page app's index, as for every other path that is not one.
        expect(decoded(res), url).toBe(INDEX);
      }
    });

    it('answers app routes with index.html, compressed, never cached without asking', async () => {
      for (const [url, accept, encoding] of [
        ['/course/12/forum/3', BROWSER, 'br'],
        ['/course/12/forum/3', 'gzip', 'gzip'],
        ['/course/12/forum/3', undefined, undefined],
        ['/index.html', BROWSER, 'br'],
        ['/', 'gzip', 'gzip'],
      ] as const) {
        const res = await get(url, accept ? { 'accept-encoding': accept } : {});
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(decoded(res), accept).toBe(INDEX);
        expect(res.headers['content-type'], accept).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control'], accept).toBe('no-cache');
        expect(res.headers.vary, accept).toBe('accept-encoding');
      }
    });
  });

  describe('the API, compressed per answer', () => {
    let token: string;
    beforeAll(async () => {
      const student = await createUser(t);
      token = await tokenFor(t, student);
      for (let i = 0; i < 20; i++) {
        const course = await createCourse(t, { description: `Week ${i}: sorting, searching and graphs.` });
        await addStudent(t, course.id, student.id);
      }
    });

    it('compresses a JSON answer over 1 KB, which decodes to the same JSON', async () => {
      const url = '/api/Course/?limit=20';
      const authorization = `Bearer ${token}`;
      const plain = await get(url, { authorization });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
      for (const [accept, encoding] of [
        [BROWSER, 'br'],
        ['gzip, deflate', 'gzip'],
      ] as const) {
        const res = await get(url, { authorization, 'accept-encoding': accept });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toContain('accept-encoding');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(JSON.parse(decoded(res))).toEqual(plain.json());
      }
    });

    it('compresses answers up to 4 KB in one call, at the cheapest settings', async () => {
      const url = '/api/Course/?limit=6';
      const authorization = `Bearer ${token}`;
      const plain = (await get(url, { authorization })).rawPayload;
      // Under every host's default syncThreshold (4 KB with 3 or more cores): never streamed.
      expect(plain.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
      expect(plain.length).toBeLessThan(4096);
      const br = await get(url, { authorization, 'accept-encoding': 'br' });
      expect(br.rawPayload.equals(brotliCompressSync(plain, IN_ONE_CALL_BROTLI))).toBe(true);
      const gzip = await get(url, { authorization, 'accept-encoding': 'gzip' });
      expect(gzip.rawPayload.equals(gzipSync(plain, IN_ONE_CALL_GZIP))).toBe(true);
    });

    it('streams large answers with a better brotli quality', async () => {
      const plain = (await get('/api/docs/json')).rawPayload;
      expect(plain.length).toBeGreaterThan(65536);
      const res = await get('/api/docs/json', { 'accept-encoding': BROWSER });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(JSON.parse(decoded(res))).toEqual(JSON.parse(plain.toString('utf8')));
      expect(res.rawPayload.length).toBeLessThan(brotliCompressSync(plain, IN_ONE_CALL_BROTLI).length * 0.9);
    });

    it('sends an answer under 1 KB as it is', async () => {
      const res = await get('/api/Auth/UserInfo/', {
        authorization: `Bearer ${token}`,
        'accept-encoding': BROWSER,
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toHaveProperty('email');
    });
  });

  describe('stored files, sent as stored', () => {
    it('streams a video by ranges, with its lengths, uncompressed', async () => {
      const w = await createVideoWorld(t);
      const upload = await uploadVideoFile(t, w.course.id, w.tokens.editor, {
        filename: 'week1.mp4',
        content: FAKE_MP4,
      });
      const url = String(upload.json<{ stream_url: string }>().stream_url);
      const whole = await get(url, { 'accept-encoding': BROWSER });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-encoding']).toBeUndefined();
      expect(whole.headers['content-length']).toBe(String(FAKE_MP4.length));
      expect(whole.rawPayload.equals(FAKE_MP4)).toBe(true);
      const part = await get(url, { 'accept-encoding': BROWSER, range: 'bytes=4-11' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.headers['content-range']).toBe(`bytes 4-11/${FAKE_MP4.length}`);
      expect(part.headers['content-length']).toBe('8');
      expect(part.body).toBe('ftypisom');
    });

    it('sends a downloaded text file as stored', async () => {
      const text = 'id,score\n'.concat(Array.from({ length: 300 }, (_, i) => `${i},${i % 10}`).join('\n'));
      const key = `tests/compression-${Date.now()}`;
      await t.ctx.storage.put(key, Buffer.from(text), 'text/csv');
      const url = signDownload(t.config, {
        kind: 'storage',
        key,
        filename: 'scores.csv',
        contentType: 'text/csv',
      });
      const res = await get(url, { 'accept-encoding': BROWSER });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(text);
    });
  });
});
