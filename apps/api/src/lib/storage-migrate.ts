/**
 * `npm run storage:migrate -- --from local --to s3`: copies every file the database refers to from one
 * store to another (docs/storage.md, "Moving between stores"). It never deletes: the source stays as it
 * was, and a file already in the target with the same size is skipped, so it is safe to run again (and
 * it should be, once more after STORAGE is switched, for files uploaded meanwhile).
 */
import type { Database } from '../db/client.ts';
import { STORAGE_KINDS, StorageNotFoundError, type Storage, type StorageKind } from '@kadai/storage';

/**
 * Every column that holds a storage key, with the content type stored beside it (a column, or an SQL
 * literal where every file of the table has the same type). A test compares this list with the
 * database's columns named `storage_key`, so a new feature's files cannot be forgotten.
 */
export const STORAGE_KEY_COLUMNS = [
  { table: 'assignment_files', key: 'storage_key', contentType: 'content_type' },
  { table: 'forum_files', key: 'storage_key', contentType: 'content_type' },
  { table: 'videos', key: 'storage_key', contentType: 'content_type' },
  // A person's data export (docs/privacy.md): always a zip.
  { table: 'data_exports', key: 'storage_key', contentType: "'application/zip'" },
] as const;

export interface ReferencedFile {
  key: string;
  contentType: string;
}

/** The files the database refers to, each key once, sorted. */
export async function listReferencedFiles(database: Pick<Database, 'query'>): Promise<ReferencedFile[]> {
  const selects = STORAGE_KEY_COLUMNS.map(
    (c) =>
      `SELECT ${c.key} AS key, ${c.contentType} AS content_type FROM ${c.table} WHERE ${c.key} IS NOT NULL`,
  );
  const { rows } = await database.query(
    `SELECT key, min(content_type) AS content_type FROM (${selects.join(' UNION ALL ')}) AS refs
     GROUP BY key ORDER BY key`,
  );
  return rows.map((row) => ({
    key: String(row.key),
    contentType: row.content_type == null ? 'application/octet-stream' : String(row.content_type),
  }));
}

export interface MigrateCounts {
  /** Referenced files in all. */
  referenced: number;
  copied: number;
  copiedBytes: number;
  /** Already in the target with the source's size. */
  present: number;
  /** Referenced by the database but not in the source: listed, not an error of the copy. */
  missing: string[];
  failed: { key: string; error: string }[];
}

export interface MigrateOptions {
  from: Storage;
  to: Storage;
  database: Pick<Database, 'query'>;
  /** Files copied at once (default 4). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

async function sizeIn(storage: Storage, key: string): Promise<number | null> {
  try {
    return await storage.size(key);
  } catch (error) {
    if (error instanceof StorageNotFoundError) return null;
    throw error;
  }
}

export async function migrateStorage(options: MigrateOptions): Promise<MigrateCounts> {
  const { from, to } = options;
  const files = await listReferencedFiles(options.database);
  const counts: MigrateCounts = {
    referenced: files.length,
    copied: 0,
    copiedBytes: 0,
    present: 0,
    missing: [],
    failed: [],
  };
  let next = 0;
  let done = 0;
  const copyOne = async (file: ReferencedFile) => {
    const size = await sizeIn(from, file.key);
    if (size === null) {
      counts.missing.push(file.key);
      return;
    }
    if ((await sizeIn(to, file.key)) === size) {
      counts.present++;
      return;
    }
    // Streamed: a 500 MB video is never held in memory. The target replaces a different file whole.
    const { size: written } = await to.put(file.key, await from.get(file.key), file.contentType);
    if (written !== size) throw new Error(`copied ${written} bytes of ${size}`);
    counts.copied++;
    counts.copiedBytes += written;
  };
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      try {
        await copyOne(file);
      } catch (error) {
        counts.failed.push({ key: file.key, error: error instanceof Error ? error.message : String(error) });
      }
      options.onProgress?.(++done, files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  counts.missing.sort();
  return counts;
}

export class MigrateUsageError extends Error {}

/** `--from local --to s3` (or `--from=local`): the two stores, which must differ. */
export function parseMigrateArgs(args: string[]): { from: StorageKind; to: StorageKind } {
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--(from|to)(?:=(.*))?$/.exec(args[i]!);
    if (!match) throw new MigrateUsageError(`Unknown argument: ${args[i]}`);
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new MigrateUsageError(`--${match[1]} needs a store`);
    values[match[1]!] = value;
  }
  const kind = (name: 'from' | 'to'): StorageKind => {
    const value = values[name];
    const known = STORAGE_KINDS.find((k) => k === value);
    if (!known) throw new MigrateUsageError(`--${name}: one of ${STORAGE_KINDS.join(', ')}`);
    return known;
  };
  const from = kind('from');
  const to = kind('to');
  if (from === to) throw new MigrateUsageError('--from and --to name the same store');
  return { from, to };
}
