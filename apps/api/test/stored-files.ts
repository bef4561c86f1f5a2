/**
 * What the app's file store holds, for tests that check an upload left nothing behind, on whichever
 * store the run uses (TEST_STORAGE, see harness.ts `testStorageEnv`).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { StorageNotFoundError, storageRoot } from '../src/lib/storage.ts';
import type { TestApp } from './harness.ts';

/**
 * Every file below `prefix` (`forum/12`), unfinished writes included: a temporary file on disk, an
 * incomplete row in the database. On S3 an object exists only once complete, so only those count.
 */
export async function storedFiles(t: TestApp, prefix: string): Promise<string[]> {
  const storage = t.ctx.storage;
  if (storage.kind === 'local') {
    const dir = path.join(storageRoot(t.config), prefix);
    try {
      return readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
    } catch {
      return [];
    }
  }
  if (storage.kind === 'postgres') {
    const { rows } = await t.database.query(
      `SELECT key FROM stored_files WHERE starts_with(key, $1 || '/') ORDER BY key`,
      [prefix],
    );
    return rows.map((row) => String(row.key));
  }
  return storage.list(prefix);
}

/** Whether the store has a (complete) file under `key`. */
export async function isStored(t: TestApp, key: string): Promise<boolean> {
  try {
    await t.ctx.storage.size(key);
    return true;
  } catch (error) {
    if (error instanceof StorageNotFoundError) return false;
    throw error;
  }
}
