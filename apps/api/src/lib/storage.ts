import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';

/**
 * Where uploaded files live. Keys are made by the server (`newStorageKey`), never taken from a user,
 * so a file name can never become a path. `LocalStorage` keeps them on disk; an S3-compatible store can
 * implement the same four calls (not built yet). Graders read the same layout: `path.join(root, key)`.
 */
export interface Storage {
  /**
   * Stores `data` under `key` whole or not at all (a reader never sees a half-written file). A stream
   * longer than `maxBytes` is refused with `StorageLimitError` and nothing is stored.
   */
  put(
    key: string,
    data: Buffer | Readable,
    contentType: string,
    options?: { maxBytes?: number },
  ): Promise<{ size: number }>;
  /**
   * A stream of the stored bytes, or of `range` (first and last byte, both included); throws
   * `StorageNotFoundError` when there is no such key.
   */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Bytes stored under the key; `StorageNotFoundError` when there is none. */
  size(key: string): Promise<number>;
  read(key: string): Promise<Buffer>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored file under ${key}.`);
  }
}

export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
  }
}

const KEY_PATTERN = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/;

/** Throws unless `key` is one the server could have made: lower-case words joined by single slashes. */
export function assertStorageKey(key: string): void {
  if (key.length > 300 || !KEY_PATTERN.test(key) || key.includes('..')) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** A new, unguessable key under `prefix` (for example `assignments/12`). */
export function newStorageKey(prefix: string): string {
  const key = `${prefix}/${randomBytes(16).toString('hex')}`;
  assertStorageKey(key);
  return key;
}

/** The folder of stored files: STORAGE_DIR, else DATA_DIR/files. */
export function storageRoot(config: Pick<Config, 'STORAGE_DIR' | 'dataDir'>): string {
  return path.resolve(config.STORAGE_DIR ?? path.join(config.dataDir, 'files'));
}

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key);
  }

  async put(
    key: string,
    data: Buffer | Readable,
    _contentType: string,
    options: { maxBytes?: number } = {},
  ): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // The temporary name holds a dot, which no key can: it never collides with a stored file.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o640);
    let size = 0;
    try {
      const chunks = Buffer.isBuffer(data) ? [data] : data;
      for await (const chunk of chunks) {
        const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        size += bytes.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) {
          throw new StorageLimitError(options.maxBytes);
        }
        await handle.write(bytes);
      }
      // Flushed before the rename, so a crash leaves the old state or the whole new file.
      await handle.sync();
      await handle.close();
      await rename(temporary, target);
      return { size };
    } catch (error) {
      await handle.close().catch(() => {});
      await unlink(temporary).catch(() => {});
      if (!Buffer.isBuffer(data)) data.destroy();
      throw error;
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    // Open first, so a missing file is an error here rather than on the stream after headers are sent.
    try {
      const handle = await open(file, 'r');
      // Closes the handle when the stream ends or is destroyed.
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

/** The storage the configuration asks for (only local disk exists today). */
export function createStorage(config: Pick<Config, 'STORAGE_DIR' | 'dataDir'>): Storage {
  return new LocalStorage(storageRoot(config));
}
