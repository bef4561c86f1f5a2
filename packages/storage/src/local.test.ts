import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { localStorageRoot } from './create.ts';
import { LocalStorage } from './local.ts';
import { StorageLimitError, StorageNotFoundError, assertStorageKey, newStorageKey } from './storage.ts';

// What only the local store does; what every store does is in conformance.ts (run by the API's tests).

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
    expect(localStorageRoot({ STORAGE_DIR: '/srv/files', DATA_DIR: '/data' })).toBe('/srv/files');
    expect(localStorageRoot({ DATA_DIR: '/data' })).toBe('/data/files');
    expect(localStorageRoot({})).toBe(path.resolve('data/files'));
  });

  it('sweeps temporary files of writes cut short, older than asked, and lists no temporary file', async () => {
    await storage.put('sweep/b/c', Buffer.from('kept'), 'text/plain');
    mkdirSync(path.join(root, 'sweep/b'), { recursive: true });
    const old = path.join(root, 'sweep/b/d.0123456789ab.partial');
    const young = path.join(root, 'sweep/b/e.0123456789ab.partial');
    writeFileSync(old, 'x');
    writeFileSync(young, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    expect(await storage.sweep(86_400_000)).toBe(1);
    expect(readdirSync(path.join(root, 'sweep/b')).sort()).toEqual(['c', 'e.0123456789ab.partial']);
    expect(await storage.list('sweep')).toEqual(['sweep/b/c']);
  });
});
