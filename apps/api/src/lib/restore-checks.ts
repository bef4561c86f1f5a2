import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  isStorageKey,
  LocalStorage,
  PostgresStorage,
  StorageNotFoundError,
  type Storage,
} from '@kadai/storage';
import type { Database } from '../db/client.ts';
import {
  BackupRefusal,
  codeMigrations,
  countRows,
  databaseMigration,
  EXIT,
  FILES_DIR,
  hashFile,
  hashStream,
  type Manifest,
} from './backup-manifest.ts';
import type {} from './backup.ts';

/* The checks of `npm run restore` (lib/restore.ts): the backup before anything is written, the target's
 * store, and the restored database against the manifest and this code's migrations afterwards. */

export function list(items: string[], limit = 10): string {
  return items.slice(0, limit).join(', ') + (items.length > limit ? `, … (${items.length} in all)` : '');
}

/** Step 1: a schema this code can run, or one it can migrate; never a newer one. */
export function checkSchema(manifest: Manifest): void {
  const known = codeMigrations();
  const last = known.at(-1)!;
  if (!known.some((m) => m.when === manifest.schema.migratedAt)) {
    throw new BackupRefusal(
      EXIT.version,
      `This backup's schema is at migration ${manifest.schema.migration}, which this code does not know ` +
        `(its last is ${last.tag}): the backup was made by a newer Kadai (${manifest.kadaiVersion}). ` +
        'Restore it with that version or a newer one; nothing was written.',
    );
  }
}

/** Step 2: the dump and every copied file exactly as the backup wrote them. */
export async function verifyBackup(
  dir: string,
  manifest: Manifest,
  log: (line: string) => void,
): Promise<void> {
  const problems: string[] = [];
  const dump = path.join(dir, manifest.database.file);
  if (path.basename(manifest.database.file) !== manifest.database.file || !existsSync(dump)) {
    problems.push(`the database dump ${manifest.database.file} is missing`);
  } else {
    const { size, sha256 } = await hashFile(dump);
    if (size !== manifest.database.size || sha256 !== manifest.database.sha256) {
      problems.push(`the database dump ${manifest.database.file} does not match its checksum`);
    }
  }
  if (manifest.storage.files === 'copied') {
    log(`Verifying the checksums of ${manifest.files.length} files…`);
    const source = new LocalStorage(path.join(dir, FILES_DIR));
    for (const file of manifest.files) {
      if (!isStorageKey(file.key)) {
        problems.push(`${JSON.stringify(file.key)} is not a storage key`);
        continue;
      }
      try {
        const { size, sha256 } = await hashStream(await source.get(file.key));
        if (size !== file.size || sha256 !== file.sha256) {
          problems.push(`files/${file.key} does not match its checksum`);
        }
      } catch (error) {
        if (!(error instanceof StorageNotFoundError)) throw error;
        problems.push(`files/${file.key} is missing`);
      }
    }
  }
  if (problems.length > 0) {
    throw new BackupRefusal(
      EXIT.damaged,
      `The backup is damaged, nothing was restored: ${list(problems)}. Restore an older backup, or copy ` +
        'this one again from where it is kept.',
    );
  }
}

/** Step 3 for the store: empty, when files are to be written into it. */
export async function checkStoreEmpty(store: Storage, manifest: Manifest): Promise<void> {
  if (manifest.storage.files !== 'copied' || manifest.files.length === 0 || store.kind === 'postgres') return;
  const present = await store.list('');
  if (present.length > 0) {
    throw new BackupRefusal(
      EXIT.target,
      `The ${store.kind} file store is not empty (${list(present, 3)}): restore into an empty store ` +
        `(a new STORAGE_DIR, bucket or S3_PREFIX); nothing was written.`,
    );
  }
}

/** Step 4's proof for the database: every table with the manifest's rows; their sum. */
export async function verifyRestoredRows(manifest: Manifest, database: Database): Promise<number> {
  const counts = await countRows((text, values) => database.query(text, values));
  const names = [...new Set([...Object.keys(counts), ...Object.keys(manifest.tables)])].sort();
  const differ = names
    .filter((name) => counts[name] !== manifest.tables[name])
    .map(
      (name) =>
        `${name}: ${counts[name] ?? 'absent'} rows, the backup had ${manifest.tables[name] ?? 'none'}`,
    );
  if (differ.length > 0) throw new Error(`The restored database differs from the backup: ${list(differ)}`);
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Step 4's proof for STORAGE=postgres backups: every file of the dump with the manifest's checksum. */
export async function verifyFilesInDatabase(manifest: Manifest, database: Database): Promise<void> {
  if (manifest.storage.files !== 'in-database') return;
  const store = new PostgresStorage(database);
  for (const file of manifest.files) {
    const { size, sha256 } = await hashStream(await store.get(file.key));
    if (size !== file.size || sha256 !== file.sha256) {
      throw new Error(`The restored file ${file.key} does not match the backup's checksum.`);
    }
  }
}

/** Step 5: the restored schema against this code's migrations. */
export async function checkMigrations(
  manifest: Manifest,
  database: Database,
  log: (line: string) => void,
): Promise<{ migration: string; pendingMigrations: number }> {
  const known = codeMigrations();
  const restored = await databaseMigration((text, values) => database.query(text, values), known);
  const at = restored?.migration ?? manifest.schema.migration;
  const index = known.findIndex((m) => m.when === restored?.migratedAt);
  const pending = known.length - 1 - index;
  if (pending === 0) {
    log(`The restored schema is at ${at}, this code's last migration: start the API on it.`);
  } else {
    log(
      `The restored schema is at ${at}; this code's last migration is ${known.at(-1)!.tag}. The API applies ` +
        `the ${pending} newer migrations when it starts (as after an upgrade): start it on the restored database.`,
    );
  }
  return { migration: at, pendingMigrations: pending };
}
