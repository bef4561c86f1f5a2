import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskAttachmentReader, isStorageKey, storageRoot } from './attachments.ts';

describe('attachment reader', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-storage-'));
  const root = path.join(dir, 'files');
  mkdirSync(path.join(root, 'assignments/7'), { recursive: true });
  writeFileSync(path.join(root, 'assignments/7/abc123'), 'data');
  writeFileSync(path.join(dir, 'secret'), 'host secret');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const read = createDiskAttachmentReader(root);

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
    await expect(read('assignments/7/missing')).rejects.toThrow(/ENOENT/);
  });

  it('finds the folder like the API does', () => {
    expect(storageRoot({ STORAGE_DIR: '/srv/files', DATA_DIR: '/x' })).toBe('/srv/files');
    expect(storageRoot({ DATA_DIR: '/var/kadai' })).toBe('/var/kadai/files');
    expect(storageRoot({})).toBe(path.resolve('data/files'));
  });
});
