import { Readable } from 'node:stream';
import {
  assertByteRange,
  assertStorageKey,
  assertStoragePrefix,
  limitedChunks,
  StorageNotFoundError,
  toBuffer,
  type ByteRange,
  type PutOptions,
  type Storage,
} from './storage.ts';

export interface SqlRows {
  rows: Record<string, unknown>[];
}
export type StorageQuery = (text: string, values?: unknown[]) => Promise<SqlRows>;

/**
 * The little SQL the `postgres` store needs: the API's `Database` (PGlite or a `pg.Pool`) and the
 * grader's `SqlClient` (a `pg.Pool`) both are one. Byte columns go in as Buffers and come back as
 * Buffers (node-postgres) or Uint8Arrays (PGlite).
 */
export interface StorageSql {
  query: StorageQuery;
  /** Committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(fn: (query: StorageQuery) => Promise<T>): Promise<T>;
}

/** Bytes per row of `stored_file_chunks` (docs/storage.md, "The postgres store", for the measurements). */
export const DEFAULT_CHUNK_BYTES = 512 * 1024;
/** A read fetches this many bytes of chunks per statement, so no statement holds a connection long. */
const READ_BATCH_BYTES = 2 * 1024 * 1024;
/** Completing a file takes this advisory lock (class, hash of the key) so two writers of a key queue. */
const LOCK_CLASS = 0x4b_53_54_4f; // "KSTO"

export interface PostgresStorageOptions {
  /** Bytes per chunk row of new files (existing files keep theirs). */
  chunkBytes?: number;
}

interface StoredFile {
  id: string;
  size: number;
  chunkSize: number;
}

/** `bigint` columns come back as strings (node-postgres) or numbers (PGlite). */
const integer = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`Not a whole number: ${String(value)}`);
  return n;
};

/**
 * Files in the database (tables `stored_files` and `stored_file_chunks`, migration 0012), so a
 * cluster needs nothing but PostgreSQL. A write inserts an incomplete row, then its chunks one
 * statement each (no transaction holds a connection while a client uploads), then, in one short
 * transaction, replaces the key's complete row by this one. A failed write deletes its row (the
 * chunks cascade); one cut short by a crash is left incomplete and removed by `sweep`. Reads fetch
 * only the chunks a range needs, 2 MiB per statement, as the reader consumes them: a read of up to
 * 2 MiB sees one snapshot; a longer stream of a file deleted meanwhile ends in StorageNotFoundError.
 */
export class PostgresStorage implements Storage {
  readonly kind = 'postgres';
  private readonly chunkBytes: number;

  constructor(
    private readonly sql: StorageSql,
    options: PostgresStorageOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    if (!Number.isSafeInteger(this.chunkBytes) || this.chunkBytes < 1) throw new RangeError('chunkBytes ≥ 1');
  }

  async put(
    key: string,
    data: Buffer | Readable,
    contentType: string,
    options: PutOptions = {},
  ): Promise<{ size: number }> {
    assertStorageKey(key);
    const chunkSize = this.chunkBytes;
    const { rows } = await this.sql.query(
      'INSERT INTO stored_files (key, content_type, chunk_size) VALUES ($1, $2, $3) RETURNING id',
      [key, contentType, chunkSize],
    );
    const id = String(rows[0]?.id);
    try {
      let seq = 0;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        await this.sql.query('INSERT INTO stored_file_chunks (file_id, seq, data) VALUES ($1, $2, $3)', [
          id,
          seq++,
          Buffer.concat(pending, pendingBytes),
        ]);
        pending = [];
        pendingBytes = 0;
      };
      for await (const bytes of limitedChunks(data, options.maxBytes)) {
        size += bytes.length;
        for (let offset = 0; offset < bytes.length;) {
          const take = Math.min(chunkSize - pendingBytes, bytes.length - offset);
          pending.push(bytes.subarray(offset, offset + take));
          pendingBytes += take;
          offset += take;
          if (pendingBytes === chunkSize) await flush();
        }
      }
      if (pendingBytes > 0) await flush();
      await this.sql.transaction(async (query) => {
        await query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, key]);
        await query('DELETE FROM stored_files WHERE key = $1 AND complete', [key]);
        await query('UPDATE stored_files SET complete = true, size = $2 WHERE id = $1', [id, size]);
      });
      return { size };
    } catch (error) {
      await this.sql.query('DELETE FROM stored_files WHERE id = $1', [id]).catch(() => {});
      if (!Buffer.isBuffer(data)) data.destroy();
      throw error;
    }
  }

  private async findFile(key: string): Promise<StoredFile> {
    assertStorageKey(key);
    const { rows } = await this.sql.query(
      'SELECT id, size, chunk_size FROM stored_files WHERE key = $1 AND complete',
      [key],
    );
    const row = rows[0];
    if (!row) throw new StorageNotFoundError(key);
    return { id: String(row.id), size: integer(row.size), chunkSize: integer(row.chunk_size) };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertStorageKey(key);
    if (range) assertByteRange(range);
    const start = range?.start ?? 0;
    const last = range?.end ?? Number.MAX_SAFE_INTEGER;
    // The file and its first batch of chunks in one statement: a read of up to a batch (every
    // attachment, most ranges) sees one snapshot, never a file replaced half-way through.
    const { rows } = await this.sql.query(
      `SELECT f.id, f.size, f.chunk_size, c.seq, c.data
       FROM stored_files f
       LEFT JOIN stored_file_chunks c ON c.file_id = f.id
         AND c.seq >= $2::bigint / f.chunk_size
         AND c.seq <= LEAST($3::bigint, f.size - 1) / f.chunk_size
         AND c.seq < $2::bigint / f.chunk_size + GREATEST(1, $4::bigint / f.chunk_size)
       WHERE f.key = $1 AND f.complete
       ORDER BY c.seq`,
      [key, start, last, READ_BATCH_BYTES],
    );
    const row = rows[0];
    if (!row) throw new StorageNotFoundError(key);
    const file = { id: String(row.id), size: integer(row.size), chunkSize: integer(row.chunk_size) };
    const firstBatch = rows.filter((r) => r.seq !== null && r.seq !== undefined);
    const end = Math.min(last, file.size - 1);
    // At most one chunk waits in the stream's buffer beyond the batch being handed out.
    return Readable.from(this.chunks(key, file, start, end, firstBatch), {
      objectMode: false,
      highWaterMark: file.chunkSize,
    });
  }

  /** The bytes `start`–`end`: the batch already fetched, then the rest a batch per statement. */
  private async *chunks(
    key: string,
    file: StoredFile,
    start: number,
    end: number,
    firstBatch: Record<string, unknown>[],
  ): AsyncGenerator<Buffer> {
    if (end < start) return;
    const first = Math.floor(start / file.chunkSize);
    const last = Math.floor(end / file.chunkSize);
    const perBatch = Math.max(1, Math.floor(READ_BATCH_BYTES / file.chunkSize));
    for (let from = first; from <= last; from += perBatch) {
      const to = Math.min(last, from + perBatch - 1);
      const rows =
        from === first
          ? firstBatch
          : (
              await this.sql.query(
                'SELECT seq, data FROM stored_file_chunks WHERE file_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq',
                [file.id, from, to],
              )
            ).rows;
      // The file was deleted or replaced while a long read went on: say so rather than end short.
      if (rows.length !== to - from + 1) throw new StorageNotFoundError(key);
      for (const row of rows) {
        const offset = integer(row.seq) * file.chunkSize;
        const bytes = toBuffer(row.data);
        yield bytes.subarray(Math.max(0, start - offset), Math.min(bytes.length, end - offset + 1));
      }
    }
  }

  async size(key: string): Promise<number> {
    return (await this.findFile(key)).size;
  }

  /** One statement, so one snapshot: a file replaced meanwhile is read whole, old or new. */
  async read(key: string): Promise<Buffer> {
    assertStorageKey(key);
    const { rows } = await this.sql.query(
      `SELECT f.size, c.data FROM stored_files f
       LEFT JOIN stored_file_chunks c ON c.file_id = f.id
       WHERE f.key = $1 AND f.complete ORDER BY c.seq`,
      [key],
    );
    if (rows.length === 0) throw new StorageNotFoundError(key);
    const bytes = Buffer.concat(rows.filter((row) => row.data != null).map((row) => toBuffer(row.data)));
    if (bytes.length !== integer(rows[0]!.size))
      throw new Error(`The chunks of ${key} do not add up to its size`);
    return bytes;
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.sql.query('DELETE FROM stored_files WHERE key = $1 AND complete', [key]);
  }

  async list(prefix: string): Promise<string[]> {
    assertStoragePrefix(prefix);
    const { rows } = await this.sql.query(
      `SELECT key FROM stored_files WHERE complete AND ($1 = '' OR starts_with(key, $1 || '/'))`,
      [prefix],
    );
    // Sorted here, not by the database's collation, so every store lists in the same order.
    return rows.map((row) => String(row.key)).sort();
  }

  async sweep(olderThanMs: number): Promise<number> {
    const { rows } = await this.sql.query(
      `DELETE FROM stored_files WHERE NOT complete AND created_at < now() - make_interval(secs => $1)
       RETURNING id`,
      [olderThanMs / 1000],
    );
    return rows.length;
  }

  async close(): Promise<void> {}
}
