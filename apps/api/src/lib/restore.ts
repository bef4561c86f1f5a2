/**
 * `npm run restore -- --from DIR` (docs/deploy.md, "Backups"): a backup of `npm run backup` into an empty
 * database and an empty file store, in this order, each step refusing before anything is written:
 *
 * 1. the manifest is read, and the backup's schema must be one this code knows (not newer);
 * 2. every checksum is verified: the dump's and every copied file's;
 * 3. the target must be empty: a database without a single table (the embedded one: no data
 *    directory), a file store without a single object;
 * 4. then the database is restored (`pg_restore --single-transaction`: all or nothing; PGlite: its
 *    tarball loaded into the new data directory), the files are written into the store STORAGE names,
 *    and every table's row count and every file's checksum is compared with the manifest;
 * 5. the restored schema is compared with this code's migrations, saying how to upgrade it.
 */
import { existsSync, mkdirSync, openAsBlob, readdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { LocalStorage, StorageNotFoundError, type Storage, type StorageSql } from '@kadai/storage';
import { openDatabase, type Database } from '../db/client.ts';
import {
  BackupRefusal,
  EXIT,
  FILES_DIR,
  HashingStream,
  readManifest,
  secretFingerprint,
  userRelations,
  type Manifest,
} from './backup-manifest.ts';
import type { BackupConfig } from './backup.ts';
import { findPgTool, libpqConnection, runProgram } from './pg-tools.ts';
import { createStorage } from './storage.ts';
import {
  checkMigrations,
  checkSchema,
  checkStoreEmpty,
  list,
  verifyBackup,
  verifyFilesInDatabase,
  verifyRestoredRows,
} from './restore-checks.ts';

export interface RestoreOptions {
  from: string;
  config: BackupConfig;
  /** The folder of the pg_restore to use. */
  pgBinDir?: string;
  s3Credentials?: Parameters<typeof createStorage>[2];
  log: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  /** The restored schema's last migration, and how many newer ones this code would apply at start. */
  migration: string;
  pendingMigrations: number;
  /** S3 backups that did not copy the objects: referenced keys the bucket lacks. */
  missingInBucket: string[];
}

/** A store that is never asked for the database (every kind but postgres, checked before it exists). */
const NO_DATABASE: StorageSql = {
  query: () => Promise.reject(new Error('The database is not open yet.')),
  transaction: () => Promise.reject(new Error('The database is not open yet.')),
};

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dir = path.resolve(options.from);
  const { config, log } = options;
  const manifest = readManifest(dir);
  const driver = config.DATABASE_URL ? 'postgres' : 'pglite';
  log(
    `Restoring a backup of ${manifest.createdAt} (Kadai ${manifest.kadaiVersion}, ${manifest.database.driver} ` +
      `${manifest.database.serverVersion}, schema at ${manifest.schema.migration}).`,
  );
  if (manifest.database.driver !== driver) {
    throw new BackupRefusal(
      EXIT.version,
      manifest.database.driver === 'pglite'
        ? 'This is a backup of the embedded database: restore it without DATABASE_URL, into DATA_DIR.'
        : 'This is a backup of a PostgreSQL server: set DATABASE_URL to an empty database to restore it into.',
    );
  }
  checkSchema(manifest);
  // The cheap refusals first (an empty target), then the checksums, and only then the first write.
  const target = config.DATABASE_URL
    ? await openServerTarget(manifest, config.DATABASE_URL, options)
    : await checkEmbeddedTarget(manifest, options);
  let database: Database;
  try {
    await verifyBackup(dir, manifest, log);
    database =
      target.kind === 'server'
        ? await loadServerDump(dir, manifest, target, options)
        : await loadEmbeddedDump(dir, manifest, target.dataDir, log);
  } catch (error) {
    if (target.kind === 'server') await target.database.close();
    throw error;
  }
  let store: Storage | null = null;
  try {
    // Rows first: files written into a postgres store add rows of their own.
    const rows = await verifyRestoredRows(manifest, database);
    store = createStorage(config, database, options.s3Credentials);
    const missingInBucket = await restoreFiles(dir, manifest, store, log);
    if (manifest.storage.missing.length > 0) {
      log(
        `Note: ${manifest.storage.missing.length} files the database names were not in the backed-up store ` +
          `(${list(
            manifest.storage.missing.map((file) => `${file.key}: ${file.reason}`),
            5,
          )}); their ` +
          'downloads answer 404, as they did on the backed-up site.',
      );
    }
    await verifyFilesInDatabase(manifest, database);
    log(
      `Verified: ${Object.keys(manifest.tables).length} tables (${rows} rows) and ${manifest.files.length} ` +
        "files match the backup's manifest.",
    );
    const result = await checkMigrations(manifest, database, log);
    if (secretFingerprint(config.JWT_SECRET) !== manifest.secretFingerprint) {
      log(
        "Warning: this site's JWT_SECRET is not the backed-up site's. Sign-in providers' secrets and LTI " +
          'keys sealed with the old one will not open (set JWT_SECRET, or DATA_DIR/jwt-secret, to the old ' +
          'value), and everyone signs in again.',
      );
    }
    return { manifest, ...result, missingInBucket };
  } finally {
    await store?.close();
    await database.close();
  }
}

interface ServerTarget {
  kind: 'server';
  database: Database;
  url: string;
  version: string;
  major: number;
}

/** Step 3 on PostgreSQL: the database without a single table, the store without a single object. */
async function openServerTarget(
  manifest: Manifest,
  url: string,
  options: RestoreOptions,
): Promise<ServerTarget> {
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  try {
    const query: StorageSql['query'] = (text, values) => database.query(text, values);
    const relations = await userRelations(query);
    if (relations.length > 0) {
      throw new BackupRefusal(
        EXIT.target,
        `The database is not empty (${list(relations, 5)}): restore into a new database ` +
          '(CREATE DATABASE kadai_restored), never over a live one; nothing was written.',
      );
    }
    await checkStoreEmpty(createStorage(options.config, NO_DATABASE, options.s3Credentials), manifest);
    const { rows } = await query(
      `SELECT current_setting('server_version') AS version, current_setting('server_version_num')::int AS num`,
    );
    return {
      kind: 'server',
      database,
      url,
      version: String(rows[0]?.version),
      major: Math.floor(Number(rows[0]?.num) / 10_000),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function loadServerDump(
  dir: string,
  manifest: Manifest,
  target: ServerTarget,
  options: RestoreOptions,
): Promise<Database> {
  const { log } = options;
  if (target.major < manifest.database.serverMajor) {
    log(
      `Warning: the backup is of PostgreSQL ${manifest.database.serverMajor} and this server is ` +
        `${target.version}; restoring into an older major version may fail.`,
    );
  }
  const pgRestore = await findPgTool('pg_restore', {
    minMajor: Math.max(manifest.database.dumpMajor ?? 0, target.major),
    for: `an archive of ${manifest.database.dumpTool} into PostgreSQL ${target.version}`,
    binDir: options.pgBinDir,
  });
  log(`Restoring the database with ${pgRestore.version} (${pgRestore.path})…`);
  const { dsn, env } = libpqConnection(target.url);
  // One transaction: a restore that fails leaves the database as empty as it was. Objects are owned by
  // the restoring role, and the old site's grants (to roles this server may not have) are left out.
  const restored = await runProgram(
    pgRestore.path,
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      '--no-password',
      `--dbname=${dsn}`,
      path.join(dir, manifest.database.file),
    ],
    env,
  );
  if (restored.code !== 0) {
    throw new Error(
      `pg_restore failed (exit ${restored.code}); the database was left empty:\n${restored.stderr.trim()}`,
    );
  }
  return target.database;
}

/** Step 3 for the embedded database: no data directory yet, and an empty store. */
async function checkEmbeddedTarget(
  manifest: Manifest,
  options: RestoreOptions,
): Promise<{ kind: 'embedded'; dataDir: string }> {
  const dataDir = path.join(options.config.dataDir, 'pglite');
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new BackupRefusal(
      EXIT.target,
      `${dataDir} already holds a database: restore into a new DATA_DIR (or move this one away first); ` +
        'nothing was written.',
    );
  }
  await checkStoreEmpty(createStorage(options.config, NO_DATABASE, options.s3Credentials), manifest);
  return { kind: 'embedded', dataDir };
}

async function loadEmbeddedDump(
  dir: string,
  manifest: Manifest,
  dataDir: string,
  log: (line: string) => void,
): Promise<Database> {
  log(`Loading the embedded database into ${dataDir}…`);
  mkdirSync(dataDir, { recursive: true });
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      dataDir,
      loadDataDir: await openAsBlob(path.join(dir, manifest.database.file)),
    });
  } catch (error) {
    throw new Error(
      `PGlite could not load the backup's data directory (made with PostgreSQL ${manifest.database.serverVersion}): ` +
        (error instanceof Error ? error.message : String(error)),
      { cause: error },
    );
  }
  return openDatabase({ pglite });
}

/** Step 4 for the files: written into the store, hashed on the way; S3 without copies: checked. */
async function restoreFiles(
  dir: string,
  manifest: Manifest,
  store: Storage,
  log: (line: string) => void,
): Promise<string[]> {
  if (manifest.storage.files === 'in-database') {
    if (store.kind !== 'postgres') {
      log(
        `The files are in the restored database (the backup was of STORAGE=postgres) and this site has ` +
          `STORAGE=${store.kind}: move them with \`npm run storage:migrate -- --from postgres --to ${store.kind}\`, ` +
          'or set STORAGE=postgres.',
      );
    }
    return [];
  }
  if (manifest.storage.files === 'not-copied') {
    const missing: string[] = [];
    for (const key of manifest.storage.referencedKeys) {
      try {
        await store.size(key);
      } catch (error) {
        if (!(error instanceof StorageNotFoundError)) throw error;
        missing.push(key);
      }
    }
    log(
      missing.length === 0
        ? `The ${store.kind} store holds every one of the ${manifest.storage.referencedKeys.length} files the database refers to.`
        : `Warning: the ${store.kind} store lacks ${missing.length} of the ${manifest.storage.referencedKeys.length} files ` +
            `the database refers to (${list(missing, 5)}): bring back the bucket's versions as of ${manifest.createdAt}.`,
    );
    return missing;
  }
  log(`Writing ${manifest.files.length} files into the ${store.kind} store…`);
  const source = new LocalStorage(path.join(dir, FILES_DIR));
  for (const file of manifest.files) {
    const hashing = new HashingStream();
    const stream = await source.get(file.key);
    stream.on('error', (error) => hashing.destroy(error));
    await store.put(file.key, stream.pipe(hashing), file.contentType);
    // Verified before writing; checked again as written, in case the backup changed meanwhile.
    if (hashing.size !== file.size || hashing.digest() !== file.sha256) {
      throw new BackupRefusal(EXIT.damaged, `files/${file.key} changed while it was restored.`);
    }
  }
  return [];
}
