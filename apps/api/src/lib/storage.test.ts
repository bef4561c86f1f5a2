// The three stores of `STORAGE` against one conformance suite (packages/storage/src/conformance.ts):
// local disk, PostgreSQL (PGlite here, PostgreSQL when TEST_DATABASE_URL is set, on the migrated
// schema) and S3 (a real S3-speaking server on 127.0.0.1); then what is particular to each.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_CHUNK_BYTES,
  LocalStorage,
  PostgresStorage,
  S3Storage,
  newStorageKey,
  readAll,
  type StorageSql,
} from '@kadai/storage';
import { describeStorageConformance } from '@kadai/storage/conformance';
import { startTestS3Server, TEST_S3_CREDENTIALS } from '@kadai/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// Local disk and S3 do not depend on the database: the PostgreSQL run (TEST_DATABASE_URL) skips them.
const onPostgresRun = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(onPostgresRun)('local', () => {
  describeStorageConformance('local', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'kadai-storage-'));
    return {
      storage: new LocalStorage(root),
      async leftovers(key) {
        const dir = path.join(root, path.dirname(key));
        return readdirSync(dir).filter((name) => name.startsWith(`${path.basename(key)}.`)).length;
      },
      async close() {
        rmSync(root, { recursive: true, force: true });
      },
    };
  });
});

describe('postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  describeStorageConformance('postgres', async () => ({
    storage: new PostgresStorage(t.database),
    async leftovers(key) {
      const { rows } = await t.database.query(
        'SELECT count(*)::int AS n FROM stored_files WHERE key = $1 AND NOT complete',
        [key],
      );
      return Number(rows[0]?.n);
    },
    async close() {},
  }));

  /** The store over the database, counting the chunks each read fetches. */
  const counting = (chunkBytes = 1000) => {
    const fetched: number[][] = [];
    const sql: StorageSql = {
      async query(text, values) {
        const result = await t.database.query(text, values);
        if (/^\s*SELECT[\s\S]*stored_file_chunks/.test(text)) {
          fetched.push(result.rows.filter((row) => row.seq != null).map((row) => Number(row.seq)));
        }
        return result;
      },
      transaction: (fn) => t.database.transaction(fn),
    };
    return { storage: new PostgresStorage(sql, { chunkBytes }), fetched };
  };

  it('fetches only the chunks a range needs, a few at a time', async () => {
    const { storage, fetched } = counting();
    const key = newStorageKey('pg/ranges');
    const bytes = randomBytes(10_500);
    expect(await storage.put(key, Readable.from([bytes.subarray(0, 333), bytes.subarray(333)]), 'x')).toEqual(
      {
        size: 10_500,
      },
    );
    const { rows } = await t.database.query(
      `SELECT c.seq, length(c.data) AS n FROM stored_file_chunks c JOIN stored_files f ON f.id = c.file_id
       WHERE f.key = $1 ORDER BY c.seq`,
      [key],
    );
    expect(rows.map((row) => Number(row.n))).toEqual([...Array(10).fill(1000), 500]);
    expect(
      (await readAll(await storage.get(key, { start: 2999, end: 4000 }))).equals(bytes.subarray(2999, 4001)),
    ).toBe(true);
    expect(fetched).toEqual([[2, 3, 4]]);
    fetched.length = 0;
    await readAll(await storage.get(key, { start: 10_400, end: 10_499 }));
    expect(fetched).toEqual([[10]]);
  });

  it('stops fetching when the reader stops reading', async () => {
    const { storage, fetched } = counting(100_000);
    const key = newStorageKey('pg/abandoned');
    // 2 MiB of chunks per statement: 20 chunks of 100 kB, so the file takes two statements to read.
    await storage.put(key, Buffer.alloc(3 * 1024 * 1024, 1), 'video/mp4');
    fetched.length = 0;
    const stream = await storage.get(key);
    for await (const _chunk of stream) break;
    expect(fetched.length).toBe(1);
  });

  it('deletes the row of a write that fails part-way', async () => {
    const storage = new PostgresStorage(t.database, { chunkBytes: 1000 });
    const key = newStorageKey('pg/failed');
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(2500));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(storage.put(key, failing, 'x')).rejects.toThrow(/went away/);
    const { rows } = await t.database.query('SELECT count(*)::int AS n FROM stored_files WHERE key = $1', [
      key,
    ]);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('sweeps incomplete files older than asked, and only those', async () => {
    const storage = new PostgresStorage(t.database);
    const kept = newStorageKey('pg/sweep');
    await storage.put(kept, Buffer.from('kept'), 'text/plain');
    const insert = async (key: string, age: string) => {
      const { rows } = await t.database.query(
        `INSERT INTO stored_files (key, content_type, chunk_size, created_at)
         VALUES ($1, 'x', $2, now() - $3::interval) RETURNING id`,
        [key, DEFAULT_CHUNK_BYTES, age],
      );
      await t.database.query('INSERT INTO stored_file_chunks (file_id, seq, data) VALUES ($1, 0, $2)', [
        rows[0]!.id,
        Buffer.from('partial'),
      ]);
    };
    await insert(newStorageKey('pg/sweep'), '2 days');
    await insert(newStorageKey('pg/sweep'), '1 hour');
    // Other tests of this file may leave incomplete rows of their own: count this test's.
    const incomplete = async () =>
      Number(
        (
          await t.database.query(
            `SELECT count(*)::int AS n FROM stored_files WHERE NOT complete AND key LIKE 'pg/sweep/%'`,
          )
        ).rows[0]?.n,
      );
    expect(await incomplete()).toBe(2);
    expect(await storage.sweep(24 * 3600 * 1000)).toBe(1);
    expect(await incomplete()).toBe(1);
    expect((await storage.read(kept)).toString()).toBe('kept');
  });
});

describe.skipIf(onPostgresRun)('s3', () => {
  let server: Awaited<ReturnType<typeof startTestS3Server>>;
  beforeAll(async () => {
    server = await startTestS3Server();
  });
  afterAll(() => server?.close());

  const open = (prefix: string) =>
    new S3Storage({
      bucket: server.bucket,
      endpoint: server.endpoint,
      forcePathStyle: true,
      prefix,
      credentials: TEST_S3_CREDENTIALS,
      // S3's smallest part, so the suite's files go up as multipart uploads too.
      partBytes: 5 * 1024 * 1024,
    });

  describeStorageConformance('s3', async () => {
    const storage = open('conformance');
    return {
      storage,
      // A refused multipart upload is aborted; its parts are not objects, and s3rver cannot list uploads.
      leftovers: async () => 0,
      replacesInPlace: true,
      close: () => storage.close(),
    };
  });

  it('keeps every key under its prefix, so stores can share a bucket', async () => {
    const first = open('one/');
    const second = open('two');
    await first.put('shared/a', Buffer.from('1'), 'text/plain');
    await second.put('shared/a', Buffer.from('2'), 'text/plain');
    expect((await first.read('shared/a')).toString()).toBe('1');
    expect((await second.read('shared/a')).toString()).toBe('2');
    expect(await first.list('shared')).toEqual(['shared/a']);
    await first.delete('shared/a');
    expect((await second.read('shared/a')).toString()).toBe('2');
    await Promise.all([first.close(), second.close()]);
  });
});
