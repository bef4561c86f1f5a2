import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StorageNotFoundError } from '@kadai/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { createAttachmentReader, createAttachmentStorage, isStorageKey, storageRoot } from './attachments.ts';
import { parseGraderEnv } from './env.ts';
import type { SqlClient } from './types.ts';

/** The local store never asks the database. */
const noDatabase: SqlClient = {
  query: () => Promise.reject(new Error('no database here')),
  transaction: () => Promise.reject(new Error('no database here')),
};

describe('attachment reader', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-storage-'));
  const root = path.join(dir, 'files');
  mkdirSync(path.join(root, 'assignments/7'), { recursive: true });
  writeFileSync(path.join(root, 'assignments/7/abc123'), 'data');
  writeFileSync(path.join(dir, 'secret'), 'host secret');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = parseGraderEnv({ DATABASE_URL: 'postgres://x/y', STORAGE_DIR: root });
  const read = createAttachmentReader(env, noDatabase);

  it('reads a stored file by its key', async () => {
    expect(Buffer.from(await read('assignments/7/abc123')).toString()).toBe('data');
  });

  it('refuses keys that could leave the folder or that the server never makes', async () => {
    for (const key of ['../secret', '/etc/passwd', 'a/../../secret', 'a//b', 'A/B', 'x.txt', '', 'a/']) {
      expect(isStorageKey(key)).toBe(false);
      await expect(read(key)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('fails for a missing file', async () => {
    await expect(read('assignments/7/missing')).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('finds the folder like the API does', () => {
    expect(storageRoot({ STORAGE_DIR: '/srv/files', DATA_DIR: '/x' })).toBe('/srv/files');
    expect(storageRoot({ DATA_DIR: '/var/kadai' })).toBe('/var/kadai/files');
    expect(storageRoot({})).toBe(path.resolve('data/files'));
  });

  it('reads from the store STORAGE names, as the API does', () => {
    const base = { DATABASE_URL: 'postgres://x/y' };
    expect(createAttachmentStorage(parseGraderEnv(base), noDatabase).kind).toBe('local');
    expect(createAttachmentStorage(parseGraderEnv({ ...base, STORAGE: 'postgres' }), noDatabase).kind).toBe(
      'postgres',
    );
    const s3 = { ...base, STORAGE: 's3', S3_BUCKET: 'kadai', S3_ENDPOINT: 'http://127.0.0.1:9' };
    expect(createAttachmentStorage(parseGraderEnv(s3), noDatabase).kind).toBe('s3');
    expect(() => parseGraderEnv({ ...base, STORAGE: 's3' })).toThrow(/S3_BUCKET: required/);
    expect(() => parseGraderEnv({ ...base, STORAGE: 'disk' })).toThrow(/STORAGE/);
  });
});
