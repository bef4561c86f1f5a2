import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** First and last byte, both included (as in an HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  /** A stream longer than this is refused with `StorageLimitError`, and nothing is stored. */
  maxBytes?: number;
}

/**
 * Where uploaded files live. Keys are made by the server (`newStorageKey`), never taken from a user,
 * so a file name can never become a path, and every store checks them with `assertStorageKey`.
 * Three stores implement it (`STORAGE=local|postgres|s3`, docs/storage.md): `LocalStorage` on disk,
 * `PostgresStorage` in chunks inside the database, `S3Storage` in a bucket. The API, the graders and
 * the kernels read files only through this interface, never from a path.
 */
export interface Storage {
  /** `local`, `postgres` or `s3`: for logs and `npm run storage:migrate`. */
  readonly kind: StorageKind;
  /**
   * Stores `data` under `key` whole or not at all (a reader never sees a half-written file); a file
   * already under the key is replaced only once the new one is complete. A stream longer than
   * `maxBytes` is refused with `StorageLimitError` and nothing is stored (the old file stays).
   */
  put(
    key: string,
    data: Buffer | Readable,
    contentType: string,
    options?: PutOptions,
  ): Promise<{ size: number }>;
  /**
   * A stream of the stored bytes, or of `range` (first and last byte, both included, within the
   * file); throws `StorageNotFoundError` when there is no such key. The bytes are streamed, never
   * read into memory whole.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Bytes stored under the key; `StorageNotFoundError` when there is none. */
  size(key: string): Promise<number>;
  /** The whole file in memory (small files: attachments for a grading run); `StorageNotFoundError`. */
  read(key: string): Promise<Buffer>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The keys of the complete files below `prefix` (`forum/12` lists `forum/12/…`; `''` lists every
   * key), sorted. Reads a whole listing: for operators and tests, not for serving requests.
   */
  list(prefix: string): Promise<string[]>;
  /**
   * Removes what writes interrupted by a crash left behind (a half-written temporary file, an
   * incomplete row) when it is older than `olderThanMs`; returns how many it removed.
   */
  sweep(olderThanMs: number): Promise<number>;
  /** Releases what the store opened itself (S3 connections); a database it was given stays open. */
  close(): Promise<void>;
}

export const STORAGE_KINDS = ['local', 'postgres', 's3'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

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

/** Whether `key` is one the server could have made: lower-case words joined by single slashes. */
export function isStorageKey(key: string): boolean {
  return key.length <= 300 && KEY_PATTERN.test(key) && !key.includes('..');
}

/** Throws unless `key` is one the server could have made: lower-case words joined by single slashes. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** Throws unless `prefix` is empty or a folder keys could lie in (`forum/12`). */
export function assertStoragePrefix(prefix: string): void {
  if (prefix !== '' && !isStorageKey(prefix))
    throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
}

/** A new, unguessable key under `prefix` (for example `assignments/12`). */
export function newStorageKey(prefix: string): string {
  const key = `${prefix}/${randomBytes(16).toString('hex')}`;
  assertStorageKey(key);
  return key;
}

/** Throws unless `range` is a valid byte range (start ≤ end, both whole and not negative). */
export function assertByteRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

/** The bytes of a stream chunk (streams in object mode may hand out strings or Uint8Arrays). */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError('A stored file is made of bytes');
}

/** A stream read into memory (small files only). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(toBuffer(chunk));
  return Buffer.concat(chunks);
}

/**
 * The bytes of `data` in order, refusing more than `maxBytes` (counted as they arrive, so a long
 * stream is refused without being read to its end). A stream is destroyed when it is refused.
 */
export async function* limitedChunks(data: Buffer | Readable, maxBytes?: number): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(data)) {
    if (maxBytes !== undefined && data.length > maxBytes) throw new StorageLimitError(maxBytes);
    yield data;
    return;
  }
  let size = 0;
  for await (const chunk of data) {
    const bytes = toBuffer(chunk);
    size += bytes.length;
    if (maxBytes !== undefined && size > maxBytes) {
      data.destroy();
      throw new StorageLimitError(maxBytes);
    }
    yield bytes;
  }
}
