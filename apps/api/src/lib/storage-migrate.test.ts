// `npm run storage:migrate`: every file the database refers to goes local → postgres → s3, a second run
// copies nothing, and the source keeps every file.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PostgresStorage, S3Storage, newStorageKey, type Storage } from '@kadai/storage';
import { startTestS3Server, TEST_S3_CREDENTIALS, type TestS3Server } from '@kadai/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createCourse, createUser } from '../../test/factories.ts';
import { insertAssignment } from '../features/assignments/testing.ts';
import { insertVideo } from '../features/videos/testing.ts';
import { LocalStorage, storageRoot } from './storage.ts';
import {
  listReferencedFiles,
  migrateStorage,
  parseMigrateArgs,
  STORAGE_KEY_COLUMNS,
} from './storage-migrate.ts';

describe('storage:migrate', () => {
  let t: TestApp;
  let s3: TestS3Server;
  let local: Storage;
  let postgres: Storage;
  let bucket: Storage;
  const files = new Map<string, Buffer>();
  let lost = '';

  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE: 'local' } });
    s3 = await startTestS3Server();
    local = new LocalStorage(storageRoot(t.config));
    postgres = new PostgresStorage(t.database, { chunkBytes: 64 * 1024 });
    bucket = new S3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      prefix: 'migrate',
      credentials: TEST_S3_CREDENTIALS,
    });
    // One file of each kind the database refers to, in the local store.
    const course = await createCourse(t);
    const user = await createUser(t);
    const assignment = await insertAssignment(t, { courses: [{ courseId: course.id }] });
    const put = async (prefix: string, bytes: Buffer) => {
      const key = newStorageKey(prefix);
      await local.put(key, bytes, 'application/octet-stream');
      files.set(key, bytes);
      return key;
    };
    const attachment = await put(`assignments/${assignment.id}`, Buffer.from('1\n2\n3\n'));
    await t.database.query(
      `INSERT INTO assignment_files (assignment_id, filename, storage_key, size, content_type)
       VALUES ($1, 'numbers.txt', $2, 6, 'text/plain')`,
      [assignment.id, attachment],
    );
    const forumFile = await put(`forum/${course.id}`, randomBytes(70_000));
    await t.database.query(
      `INSERT INTO forum_files (course_id, uploaded_by, storage_key, filename, size, content_type)
       VALUES ($1, $2, $3, 'photo.png', 70000, 'image/png')`,
      [course.id, user.id, forumFile],
    );
    const video = await put(`videos/${course.id}`, randomBytes(3 * 1024 * 1024 + 17));
    await insertVideo(t, {
      courseId: course.id,
      platform: 'file',
      storageKey: video,
      fileSize: 3 * 1024 * 1024 + 17,
      contentType: 'video/mp4',
    });
    // A row whose file is gone (a disk restored from an old backup): reported, never fatal.
    lost = `forum/${course.id}/lost`;
    await t.database.query(
      `INSERT INTO forum_files (course_id, uploaded_by, storage_key, filename, size, content_type)
       VALUES ($1, $2, $3, 'lost.txt', 1, 'text/plain')`,
      [course.id, user.id, lost],
    );
  });
  afterAll(async () => {
    await bucket?.close();
    await s3?.close();
    await t?.close();
  });

  // Compared as digests: a deep comparison of 3 MB blocks the event loop for 18 s, long enough
  // for s3rver (in this process) to drop its idle keep-alive connections under the client's requests.
  const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const digests = () => new Map([...files].map(([key, bytes]) => [key, digest(bytes)]));
  const contentsOf = async (storage: Storage) =>
    new Map(
      await Promise.all(
        [...files.keys()].map(async (key) => [key, digest(await storage.read(key))] as const),
      ),
    );

  it('knows every column that holds a storage key', async () => {
    const { rows } = await t.database.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND column_name LIKE '%storage_key%' ORDER BY table_name`,
    );
    expect(rows.map((row) => `${String(row.table_name)}.${String(row.column_name)}`)).toEqual(
      STORAGE_KEY_COLUMNS.map((c) => `${c.table}.${c.key}`).sort(),
    );
    const referenced = await listReferencedFiles(t.database);
    expect(referenced.map((file) => file.key)).toEqual([...files.keys(), lost].sort());
    expect(referenced.find((file) => file.key.startsWith('videos/'))?.contentType).toBe('video/mp4');
  });

  it('copies local → postgres → s3, and again copies nothing', async () => {
    const first = await migrateStorage({ from: local, to: postgres, database: t.database });
    expect(first).toMatchObject({ referenced: 4, copied: 3, present: 0, failed: [] });
    expect(first.missing).toEqual([lost]);
    expect(await contentsOf(postgres)).toEqual(digests());

    const again = await migrateStorage({ from: local, to: postgres, database: t.database });
    expect(again).toMatchObject({ copied: 0, copiedBytes: 0, present: 3, failed: [] });

    const toS3 = await migrateStorage({ from: postgres, to: bucket, database: t.database, concurrency: 2 });
    expect(toS3).toMatchObject({ copied: 3, present: 0, failed: [] });
    expect(toS3.copiedBytes).toBe([...files.values()].reduce((sum, b) => sum + b.length, 0));
    expect(await contentsOf(bucket)).toEqual(digests());
    expect(await migrateStorage({ from: postgres, to: bucket, database: t.database })).toMatchObject({
      copied: 0,
      present: 3,
    });
    // Never deletes: the sources still hold every file.
    expect(await contentsOf(local)).toEqual(digests());
    expect(await contentsOf(postgres)).toEqual(digests());
  });

  it('replaces a file of another size in the target, and says which copies failed', async () => {
    const [key] = [...files.keys()];
    await bucket.put(key!, Buffer.from('truncated'), 'text/plain');
    class FailingReads extends PostgresStorage {
      override get(): Promise<Readable> {
        return Promise.reject(new Error('boom'));
      }
    }
    const failing = new FailingReads(t.database);
    const broken = await migrateStorage({ from: failing, to: bucket, database: t.database });
    expect(broken.failed).toEqual([{ key, error: 'boom' }]);
    const fixed = await migrateStorage({ from: local, to: bucket, database: t.database });
    expect(fixed).toMatchObject({ copied: 1, present: 2, failed: [] });
    expect(await bucket.read(key!)).toEqual(files.get(key!));
  });

  it('reads its arguments', () => {
    expect(parseMigrateArgs(['--from', 'local', '--to', 's3'])).toEqual({ from: 'local', to: 's3' });
    expect(parseMigrateArgs(['--from=postgres', '--to=local'])).toEqual({ from: 'postgres', to: 'local' });
    expect(() => parseMigrateArgs(['--from', 'local', '--to', 'local'])).toThrow(/same store/);
    expect(() => parseMigrateArgs(['--from', 'disk', '--to', 's3'])).toThrow(/--from: one of/);
    expect(() => parseMigrateArgs(['--to', 's3'])).toThrow(/--from/);
    expect(() => parseMigrateArgs(['--delete'])).toThrow(/Unknown argument/);
  });
});
