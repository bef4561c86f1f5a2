/**
 * Reads assignment files from the storage folder the API writes (`STORAGE_DIR`, else `DATA_DIR/files`):
 * a file lives at `path.join(root, key)`. Keys are made by the server; they are still checked here, so
 * a bad row in the database can never make the grader read outside the folder.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const KEY_PATTERN = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/;

export function isStorageKey(key: string): boolean {
  return key.length <= 300 && KEY_PATTERN.test(key) && !key.includes('..');
}

export function storageRoot(env: { STORAGE_DIR?: string; DATA_DIR?: string }): string {
  return path.resolve(env.STORAGE_DIR ?? path.join(env.DATA_DIR ?? './data', 'files'));
}

export function createDiskAttachmentReader(root: string): (storageKey: string) => Promise<Uint8Array> {
  const base = path.resolve(root);
  return async (storageKey) => {
    if (!isStorageKey(storageKey)) throw new Error(`Invalid storage key: ${JSON.stringify(storageKey)}`);
    const file = path.join(base, storageKey);
    // The pattern already forbids it; this makes escaping the folder impossible by construction.
    if (!file.startsWith(base + path.sep)) throw new Error(`Storage key leaves the folder: ${storageKey}`);
    return readFile(file);
  };
}
