/**
 * What every store must do, as one vitest suite: the API runs it on `local`, `postgres` (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set) and `s3` (a real S3-speaking server on 127.0.0.1), in
 * apps/api/src/lib/storage.test.ts. Test code: imported by tests only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_BYTES } from './postgres.ts';
import { newStorageKey, readAll, StorageLimitError, StorageNotFoundError, type Storage } from './storage.ts';

export interface ConformanceTarget {
  storage: Storage;
  /** What failed writes of `key` left behind (temporary files, incomplete rows): must stay 0. */
  leftovers(key: string): Promise<number>;
  /**
   * The test server rewrites an object in place while a reader reads it (s3rver does; S3 itself
   * swaps objects whole), so racing writers of one key are not checked against it.
   */
  replacesInPlace?: boolean;
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/** `size` bytes handed out in pieces of `piece` bytes, as an upload arrives. */
function streamOf(bytes: Buffer, piece = 64 * 1024): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) return void this.push(null);
      this.push(bytes.subarray(offset, offset + piece));
      offset += piece;
    },
  });
}

/** A long stream made as it is read (never whole in memory), and the SHA-256 of what it handed out. */
function generated(size: number) {
  const block = randomBytes(64 * 1024);
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const piece = Buffer.from(block.subarray(0, Math.min(block.length, size - sent)));
      piece.writeUInt32BE(sent, 0);
      sent += piece.length;
      hash.update(piece);
      this.push(piece);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function digestOf(stream: Readable) {
  const hash = createHash('sha256');
  let size = 0;
  let largestPiece = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.from(chunk);
    hash.update(bytes);
    size += bytes.length;
    largestPiece = Math.max(largestPiece, bytes.length);
  }
  return { digest: hash.digest('hex'), size, largestPiece };
}

const text = async (stream: Readable) => (await readAll(stream)).toString('utf8');

export function describeStorageConformance(name: string, open: () => Promise<ConformanceTarget>): void {
  describe(`the ${name} store`, () => {
    let target: ConformanceTarget;
    let storage: Storage;
    beforeAll(async () => {
      target = await open();
      storage = target.storage;
    });
    afterAll(() => target?.close());

    it('stores, reads, streams, replaces and deletes', async () => {
      const key = newStorageKey('conformance/basic');
      expect(await storage.put(key, Buffer.from('hello'), 'text/plain')).toEqual({ size: 5 });
      expect((await storage.read(key)).toString()).toBe('hello');
      expect(await text(await storage.get(key))).toBe('hello');
      expect(await storage.size(key)).toBe(5);
      const stream = Readable.from([Buffer.from('bye '), Buffer.from('now')]);
      expect(await storage.put(key, stream, 'text/plain')).toEqual({ size: 7 });
      expect((await storage.read(key)).toString()).toBe('bye now');
      expect(await storage.size(key)).toBe(7);
      expect(await storage.list('conformance/basic')).toEqual([key]);
      await storage.delete(key);
      await storage.delete(key);
      expect(await storage.list('conformance/basic')).toEqual([]);
    });

    it('stores an empty file', async () => {
      const key = newStorageKey('conformance/empty');
      expect(await storage.put(key, Readable.from([]), 'text/plain')).toEqual({ size: 0 });
      expect(await storage.size(key)).toBe(0);
      expect((await storage.read(key)).length).toBe(0);
    });

    it('answers a missing key with StorageNotFoundError and refuses keys the server could not make', async () => {
      const key = newStorageKey('conformance/missing');
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.get(key, { start: 0, end: 1 })).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.size(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.read(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      await storage.delete(key);
      for (const bad of ['', '../etc/passwd', 'a//b', 'A/b', '/abs', 'a/b/', 'a/./b', 'x'.repeat(301)]) {
        await expect(storage.read(bad), bad).rejects.toThrow(/Invalid storage key/);
        await expect(storage.put(bad, Buffer.from('x'), 'text/plain'), bad).rejects.toThrow(
          /Invalid storage key/,
        );
      }
    });

    it('lists the keys below a prefix only, sorted', async () => {
      const keys = ['conformance/list/1/b', 'conformance/list/1/a', 'conformance/list/12/c'];
      for (const key of keys) await storage.put(key, Buffer.from(key), 'text/plain');
      expect(await storage.list('conformance/list/1')).toEqual([
        'conformance/list/1/a',
        'conformance/list/1/b',
      ]);
      expect(await storage.list('conformance/list')).toEqual([...keys].sort());
      expect(await storage.list('conformance/list/none')).toEqual([]);
    });

    it('refuses a file past maxBytes and keeps nothing of it (nor loses the file it would replace)', async () => {
      const key = newStorageKey('conformance/limit');
      await expect(
        storage.put(key, streamOf(Buffer.alloc(3 * MB, 1)), 'application/octet-stream', { maxBytes: MB }),
      ).rejects.toBeInstanceOf(StorageLimitError);
      await expect(storage.size(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.put(key, Buffer.alloc(1001), 'x', { maxBytes: 1000 })).rejects.toBeInstanceOf(
        StorageLimitError,
      );
      expect(await storage.put(key, Buffer.alloc(1000, 7), 'x', { maxBytes: 1000 })).toEqual({ size: 1000 });
      expect(await storage.put(key, streamOf(Buffer.alloc(1000, 8), 100), 'x', { maxBytes: 1000 })).toEqual({
        size: 1000,
      });
      // A refused replacement (past a multipart upload's first part on S3) leaves the old file whole.
      const big = streamOf(Buffer.alloc(12 * MB, 9), MB);
      await expect(storage.put(key, big, 'x', { maxBytes: 11 * MB })).rejects.toBeInstanceOf(
        StorageLimitError,
      );
      expect(big.destroyed).toBe(true);
      expect(await storage.read(key)).toEqual(Buffer.alloc(1000, 8));
      expect(await storage.list('conformance/limit')).toEqual([key]);
      expect(await target.leftovers(key)).toBe(0);
    });

    it('reads ranges, across chunk borders too', async () => {
      const key = newStorageKey('conformance/ranges');
      const chunk = DEFAULT_CHUNK_BYTES;
      const bytes = randomBytes(3 * chunk + 12_345);
      // Pieces of an odd size, so chunk borders fall inside them.
      await storage.put(key, streamOf(bytes, 77_777), 'application/octet-stream');
      expect(await storage.size(key)).toBe(bytes.length);
      const ranges: [number, number][] = [
        [0, 0],
        [0, 9],
        [chunk - 1, chunk],
        [chunk - 10, 2 * chunk + 10],
        [2 * chunk, 3 * chunk - 1],
        [3 * chunk, bytes.length - 1],
        [bytes.length - 1, bytes.length - 1],
        [5, bytes.length - 1],
      ];
      for (const [start, end] of ranges) {
        const got = await readAll(await storage.get(key, { start, end }));
        expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
      expect((await storage.read(key)).equals(bytes)).toBe(true);
    });

    it('never shows a reader a half-written file', async () => {
      const key = newStorageKey('conformance/atomic');
      const before = randomBytes(DEFAULT_CHUNK_BYTES + 1000);
      const after = randomBytes(6 * MB);
      const firstPart = 5.5 * MB; // past S3's first part of 5 MiB: a multipart upload is under way
      await storage.put(key, before, 'application/octet-stream');
      const fresh = newStorageKey('conformance/atomic');
      // Both uploads arrive slowly: most now, the rest once the readers have looked.
      const slow = new PassThrough();
      const slowFresh = new PassThrough();
      const writing = storage.put(key, slow, 'application/octet-stream');
      const writingFresh = storage.put(fresh, slowFresh, 'application/octet-stream');
      slow.write(after.subarray(0, firstPart));
      slowFresh.write(after.subarray(0, firstPart));
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 3; i++) {
        expect((await storage.read(key)).equals(before)).toBe(true);
        expect(await storage.size(key)).toBe(before.length);
        await expect(storage.size(fresh)).rejects.toBeInstanceOf(StorageNotFoundError);
      }
      slow.end(after.subarray(firstPart));
      slowFresh.end(after.subarray(firstPart));
      await Promise.all([writing, writingFresh]);
      expect((await storage.read(key)).equals(after)).toBe(true);
      expect((await storage.read(fresh)).equals(after)).toBe(true);
      expect(await storage.list('conformance/atomic')).toEqual([key, fresh].sort());
      if (target.replacesInPlace) return;

      // Writers racing on one key while readers read: every read is one whole version.
      const versions = [1, 2, 3].map(() => randomBytes(DEFAULT_CHUNK_BYTES + 5000));
      const writers = versions.map((v) => storage.put(key, streamOf(v, 50_000), 'application/octet-stream'));
      const seen = await Promise.all(
        Array.from({ length: 6 }, async () => (await storage.read(key)).toString('hex')),
      );
      await Promise.all(writers);
      const whole = new Set([after, ...versions].map((v) => v.toString('hex')));
      for (const read of seen) expect(whole.has(read)).toBe(true);
      expect(whole.has((await storage.read(key)).toString('hex'))).toBe(true);
      expect(await storage.list('conformance/atomic')).toEqual([key, fresh].sort());
      expect(await target.leftovers(key)).toBe(0);
    });

    it('streams a large file both ways without holding it whole', async () => {
      const key = newStorageKey('conformance/large');
      const size = 20 * MB + 123;
      const source = generated(size);
      expect(await storage.put(key, source.stream, 'video/mp4', { maxBytes: 25 * MB })).toEqual({ size });
      expect(await storage.size(key)).toBe(size);
      const read = await digestOf(await storage.get(key));
      expect(read.size).toBe(size);
      expect(read.digest).toBe(source.digest());
      // Handed out piece by piece: the store never produced the file as one buffer.
      expect(read.largestPiece).toBeLessThanOrEqual(2 * MB);
      // A range across the 8 MiB border of S3's parts and many chunk borders.
      const middle = await readAll(await storage.get(key, { start: 8 * MB - 100, end: 9 * MB + 100 }));
      expect(middle.length).toBe(MB + 201);
      expect(middle.readUInt32BE(100)).toBe(8 * MB);
      await storage.delete(key);
      await expect(storage.size(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    });
  });
}
