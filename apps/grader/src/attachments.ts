/**
 * Graders read assignment files through the store the API writes them to (`STORAGE`, docs/storage.md),
 * built from the grader's own environment: the same `@kadai/storage` code as the API's, so a file is
 * found under its key on disk (`STORAGE_DIR`, else `DATA_DIR/files`), in the database or in a bucket.
 * Keys are made by the server; the store still checks them, so a bad row in the database can never
 * make the grader read outside its folder.
 */
import {
  createStorage,
  isStorageKey,
  localStorageRoot,
  type Storage,
  type StorageSettings,
} from '@kadai/storage';
import type { SqlClient } from './types.ts';

export { isStorageKey };

export function storageRoot(env: { STORAGE_DIR?: string; DATA_DIR?: string }): string {
  return localStorageRoot(env);
}

/** The store the grader's environment names; `sql` holds the files of `STORAGE=postgres`. */
export function createAttachmentStorage(env: StorageSettings, sql: SqlClient): Storage {
  return createStorage(env, { sql });
}

/** `readAttachment` of `startGrader`: the bytes of an assignment file by its storage key. */
export function createAttachmentReader(
  env: StorageSettings,
  sql: SqlClient,
): (key: string) => Promise<Uint8Array> {
  const storage = createAttachmentStorage(env, sql);
  return (key) => storage.read(key);
}
