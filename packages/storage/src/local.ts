import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertByteRange,
  assertStorageKey,
  assertStoragePrefix,
  limitedChunks,
  StorageNotFoundError,
  type ByteRange,
  type PutOptions,
  type Storage,
} from './storage.ts';

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

/** A temporary file of `put`: its name holds a dot, which no key can, so it never collides with a file. */
const PARTIAL = /\.[0-9a-f]{12}\.partial$/;

/**
 * Files on this machine's disk, at `path.join(root, key)`: the embedded default. Every process that
 * reads them (API instances, graders) needs the same folder, so a cluster uses `postgres` or `s3`.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.join(this.root, key);
    // The key pattern already forbids it; this makes leaving the folder impossible by construction.
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key leaves the folder: ${key}`);
    return file;
  }

  async put(
    key: string,
    data: Buffer | Readable,
    _contentType: string,
    options: PutOptions = {},
  ): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o640);
    let size = 0;
    try {
      for await (const bytes of limitedChunks(data, options.maxBytes)) {
        size += bytes.length;
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

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    if (range) assertByteRange(range);
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

  /** Every file below `dir` (relative to the root, with `/`), temporary ones included. */
  private async filesUnder(dir: string): Promise<string[]> {
    try {
      const entries = await readdir(path.join(this.root, dir), { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        );
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertStoragePrefix(prefix);
    // Only the prefix's folder is read, not the whole tree.
    return (await this.filesUnder(prefix)).filter((file) => !PARTIAL.test(file)).sort();
  }

  async sweep(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const file of await this.filesUnder('')) {
      if (!PARTIAL.test(file)) continue;
      const full = path.join(this.root, file);
      const modified = await stat(full).then(
        (s) => s.mtimeMs,
        () => Infinity,
      );
      if (modified < cutoff) {
        await unlink(full).then(
          () => removed++,
          () => {},
        );
      }
    }
    return removed;
  }

  async close(): Promise<void> {}
}
