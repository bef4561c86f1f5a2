import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LocalStorage,
  StorageLimitError,
  StorageNotFoundError,
  assertStorageKey,
  newStorageKey,
  storageRoot,
} from './storage.ts';

describe('LocalStorage', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'kadai-storage-'));
  const storage = new LocalStorage(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const text = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  };

  it('stores, reads, streams, replaces and deletes', async () => {
    const key = newStorageKey('assignments/7');
    expect(key).toMatch(/^assignments\/7\/[0-9a-f]{32}$/);
    expect(await storage.put(key, Buffer.from('hello'), 'text/plain')).toEqual({ size: 5 });
    expect((await storage.read(key)).toString()).toBe('hello');
    expect(await text(await storage.get(key))).toBe('hello');
    expect(existsSync(path.join(root, key))).toBe(true);
    await storage.put(key, Readable.from([Buffer.from('bye '), Buffer.from('now')]), 'text/plain');
    expect((await storage.read(key)).toString()).toBe('bye now');
    await storage.delete(key);
    await storage.delete(key);
    await expect(storage.read(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('refuses a stream over the cap and leaves nothing behind', async () => {
    const key = newStorageKey('caps');
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(
      storage.put(key, big, 'application/octet-stream', { maxBytes: 1000 }),
    ).rejects.toBeInstanceOf(StorageLimitError);
    expect(readdirSync(path.join(root, 'caps'))).toEqual([]);
    expect(await storage.put(key, Buffer.alloc(1000), 'x', { maxBytes: 1000 })).toEqual({ size: 1000 });
  });

  it('accepts only keys the server makes', async () => {
    for (const key of [
      '../x',
      'a/../../b',
      '/etc/passwd',
      'A/b',
      'a//b',
      'a/',
      'a.b',
      'a/b.c',
      '',
      'a\\b',
      'a b',
    ]) {
      expect(() => assertStorageKey(key), key).toThrow();
      await expect(storage.read(key), key).rejects.toThrow(/Invalid storage key/);
    }
    expect(() => assertStorageKey('assignments/1/0a_b-c')).not.toThrow();
  });

  it('is rooted at STORAGE_DIR, else DATA_DIR/files', () => {
    expect(storageRoot({ STORAGE_DIR: '/srv/files', dataDir: '/data' })).toBe('/srv/files');
    expect(storageRoot({ STORAGE_DIR: undefined, dataDir: '/data' })).toBe('/data/files');
  });
});
