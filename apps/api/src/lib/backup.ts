/**
 * `npm run backup -- --to DIR` (docs/deploy.md, "Backups"): the database and the file store, consistent
 * with each other, and a manifest that lets `npm run restore` prove the copy whole.
 *
 * PostgreSQL: one REPEATABLE READ transaction exports its snapshot; `pg_dump --format=custom
 * --snapshot` dumps exactly that state, and the same transaction counts every table's rows, lists the
 * storage keys the rows refer to and (STORAGE=postgres) hashes the stored files. The API, graders and
 * kernel hosts keep running. Files of the `local` store (and of `s3` with --copy-s3) are copied in two
 * passes around the snapshot: every object before it, then every key the snapshot refers to that the
 * first pass did not see. A file is always stored before the row that names it commits, and deleted
 * only after that row is gone, so every key of the dump is copied unless its file was uploaded and
 * deleted again within the minutes of the backup (the command says so and names it).
 *
 * The embedded database (PGlite): one process at a time may open its data directory, so the API is
 * stopped; this process opens it and takes PGlite's `dumpDataDir`, a tarball of the data directory
 * that nothing else changes meanwhile (a copy of a stopped server: restored byte for byte, with every
 * index and sequence, in seconds; a logical dump would need a pg_dump built for PGlite's PostgreSQL 18).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PostgresStorage, type Storage, type StorageKind, type StorageSql } from '@kadai/storage';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { VERSION } from '../version.ts';
import {
  BackupRefusal,
  countRows,
  databaseMigration,
  EXIT,
  FILES_DIR,
  hashFile,
  hashStream,
  MANIFEST_FILE,
  PG_DUMP_FILE,
  PGLITE_DUMP_FILE,
  secretFingerprint,
  type BackupFile,
  type Manifest,
  type MissingFile,
} from './backup-manifest.ts';
import { FileCopier, storagePlan } from './backup-files.ts';
import { findPgTool, libpqConnection, runProgram } from './pg-tools.ts';
import { createStorage, type StorageConfig } from './storage.ts';
import { listReferencedFiles, type ReferencedFile } from './storage-migrate.ts';

export type BackupConfig = StorageConfig & Pick<Config, 'DATABASE_URL' | 'JWT_SECRET'>;

export interface BackupOptions {
  /** The backup folder: made when missing, refused when it holds anything. */
  to: string;
  config: BackupConfig;
  /** The folder of the pg_dump to use (else the server's major version is looked for). */
  pgBinDir?: string;
  /** With STORAGE=s3: copy the bucket's objects too (else the manifest says the bucket is its own backup). */
  copyS3?: boolean;
  /** S3 credentials instead of the SDK's chain (tests). */
  s3Credentials?: Parameters<typeof createStorage>[2];
  /** Progress and results, for an operator. */
  log: (line: string) => void;
}

export interface BackupResult {
  manifest: Manifest;
  /** Keys the dump refers to without a file in the backup (see `Manifest['storage']['missing']`). */
  missing: MissingFile[];
}

const MB = 1024 * 1024;

/**
 * A folder to write the backup into: made if missing, refused unless empty (backups are never mixed).
 * Returns how to remove what the backup wrote, for a backup that fails half-way.
 */
function prepareFolder(dir: string): () => void {
  const existed = existsSync(dir);
  if (existed && readdirSync(dir).length > 0) {
    throw new BackupRefusal(
      EXIT.target,
      `${dir} is not empty: give each backup a folder of its own (for example backups/$(date +%F)).`,
    );
  }
  mkdirSync(path.join(dir, FILES_DIR), { recursive: true });
  return () => {
    if (!existed) rmSync(dir, { recursive: true, force: true });
    else
      for (const entry of readdirSync(dir)) rmSync(path.join(dir, entry), { recursive: true, force: true });
  };
}

/** What the snapshot (or the stopped embedded database) says. */
interface DatabaseState {
  migration: Manifest['schema'];
  tables: Record<string, number>;
  referenced: ReferencedFile[];
  /** STORAGE=postgres: the stored files, hashed in the same snapshot. */
  inDatabase: BackupFile[];
}

/** Reads `DatabaseState` through `query` (the snapshot's transaction, or the embedded database). */
async function readState(
  query: StorageSql['query'],
  kind: StorageKind,
  log: (line: string) => void,
): Promise<DatabaseState> {
  const migration = await databaseMigration(query);
  if (!migration) {
    throw new BackupRefusal(
      EXIT.failed,
      'The database has never been migrated (no drizzle.__drizzle_migrations): there is no Kadai data to back up.',
    );
  }
  const tables = await countRows(query);
  const referenced = await listReferencedFiles({ query });
  const inDatabase: BackupFile[] = [];
  if (kind === 'postgres') {
    // Reads only: the store's writes (its one use of `transaction`) never run here.
    const store = new PostgresStorage({
      query,
      transaction: () => Promise.reject(new Error('The backup reads the store; it never writes.')),
    });
    const types = new Map(referenced.map((file) => [file.key, file.contentType]));
    const keys = await store.list('');
    log(`Hashing the ${keys.length} files stored in the database…`);
    for (const key of keys) {
      const { size, sha256 } = await hashStream(await store.get(key));
      inDatabase.push({ key, size, sha256, contentType: types.get(key) ?? 'application/octet-stream' });
    }
  }
  return { migration, tables, referenced, inDatabase };
}

interface ServerInfo {
  serverVersion: string;
  serverMajor: number;
}

async function serverInfo(query: StorageSql['query']): Promise<ServerInfo> {
  const { rows } = await query(
    `SELECT current_setting('server_version') AS version, current_setting('server_version_num')::int AS num`,
  );
  const num = Number(rows[0]?.num);
  return { serverVersion: String(rows[0]?.version), serverMajor: Math.floor(num / 10_000) };
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const dir = path.resolve(options.to);
  const remove = prepareFolder(dir);
  try {
    return options.config.DATABASE_URL
      ? await backupServer(dir, options.config.DATABASE_URL, options)
      : await backupEmbedded(dir, options);
  } catch (error) {
    // Half a backup is no backup: nothing is left that a restore could mistake for one.
    remove();
    throw error;
  }
}

/** The manifest is written last, under a temporary name first: its presence marks a finished backup. */
function writeManifest(dir: string, manifest: Manifest): void {
  const partial = path.join(dir, `${MANIFEST_FILE}.partial`);
  writeFileSync(partial, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(partial, path.join(dir, MANIFEST_FILE));
}

function manifestOf(
  options: BackupOptions,
  server: ServerInfo,
  dump: Pick<Manifest['database'], 'dumpTool' | 'dumpMajor' | 'format' | 'file' | 'size' | 'sha256'>,
  state: DatabaseState,
  files: BackupFile[],
  missing: MissingFile[],
): Manifest {
  const kind = options.config.STORAGE;
  return {
    format: 'kadai-backup',
    formatVersion: 1,
    kadaiVersion: VERSION,
    createdAt: new Date().toISOString(),
    schema: state.migration,
    database: {
      driver: options.config.DATABASE_URL ? 'postgres' : 'pglite',
      ...server,
      ...dump,
    },
    tables: state.tables,
    storage: {
      kind,
      ...storagePlan(kind, options.copyS3 === true),
      referencedKeys: state.referenced.map((file) => file.key),
      missing,
    },
    files: [...files].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    secretFingerprint: secretFingerprint(options.config.JWT_SECRET),
  };
}

function describe(manifest: Manifest, log: (line: string) => void): void {
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
  log(
    `Backed up ${Object.keys(manifest.tables).length} tables (${rows} rows, schema at ${manifest.schema.migration}) ` +
      `and ${manifest.files.length} files (${(bytes / MB).toFixed(1)} MB, ${manifest.storage.files}).`,
  );
}

async function backupServer(dir: string, url: string, options: BackupOptions): Promise<BackupResult> {
  const { config, log } = options;
  // One connection holds the snapshot's transaction, one more serves the copies and the final check.
  const database = await openDatabase({ databaseUrl: url, poolSize: 3 });
  let storage: Storage | null = null;
  try {
    const server = await serverInfo((text, values) => database.query(text, values));
    const pgDump = await findPgTool('pg_dump', {
      minMajor: server.serverMajor,
      for: `the PostgreSQL ${server.serverVersion} server`,
      binDir: options.pgBinDir,
    });
    if (pgDump.major !== server.serverMajor) {
      log(
        `Note: the server is PostgreSQL ${server.serverMajor} and pg_dump is ${pgDump.major} (${pgDump.path}); ` +
          `a newer pg_dump reads an older server, and its archive needs pg_restore ${pgDump.major} or newer.`,
      );
    }
    log(`Backing up PostgreSQL ${server.serverVersion} with ${pgDump.version} (${pgDump.path}).`);
    storage = createStorage(config, database, options.s3Credentials);
    const plan = storagePlan(config.STORAGE, options.copyS3 === true);
    const copier = new FileCopier(storage, dir, log);
    if (plan.files === 'copied') {
      const before = await storage.list('');
      log(`Copying the ${before.length} files of the ${config.STORAGE} store…`);
      // Types come with the rows; a file without one yet gets its type in the second pass.
      const types = new Map((await listReferencedFiles(database)).map((f) => [f.key, f.contentType]));
      await copier.copy(before, types);
    }

    const dumpFile = path.join(dir, PG_DUMP_FILE);
    const { dsn, env } = libpqConnection(url);
    const state = await database.transaction(async (query) => {
      await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const snapshot = String((await query('SELECT pg_export_snapshot() AS id')).rows[0]?.id);
      log(`Dumping the database (snapshot ${snapshot})…`);
      const dumped = await runProgram(
        pgDump.path,
        [
          '--format=custom',
          `--snapshot=${snapshot}`,
          '--no-password',
          `--file=${dumpFile}`,
          `--dbname=${dsn}`,
        ],
        env,
      );
      if (dumped.code !== 0)
        throw new Error(`pg_dump failed (exit ${dumped.code}):\n${dumped.stderr.trim()}`);
      return readState(query, config.STORAGE, log);
    });

    let missing: MissingFile[] = [];
    if (plan.files === 'copied') {
      const types = new Map(state.referenced.map((f) => [f.key, f.contentType]));
      // The objects written after the first pass that the snapshot's rows name.
      const absent = await copier.copy(
        state.referenced.map((file) => file.key),
        types,
      );
      for (const file of copier.copied.values()) file.contentType = types.get(file.key) ?? file.contentType;
      missing = await explainMissing(database, absent, log);
    } else if (plan.files === 'in-database') {
      missing = missingInDatabase(state, log);
    }
    const files = plan.files === 'copied' ? [...copier.copied.values()] : state.inDatabase;
    const dumped = await hashFile(dumpFile);
    const manifest = manifestOf(
      options,
      server,
      {
        dumpTool: pgDump.version,
        dumpMajor: pgDump.major,
        format: 'pg_dump-custom',
        file: PG_DUMP_FILE,
        ...dumped,
      },
      state,
      files,
      missing,
    );
    writeManifest(dir, manifest);
    describe(manifest, log);
    return { manifest, missing };
  } finally {
    await storage?.close();
    await database.close();
  }
}

/**
 * Keys of the snapshot without a file. Deleted meanwhile along with their rows (no longer referenced
 * now): the restored site shows what the running one did a moment later, a file being removed. Still
 * referenced now: the running site itself lacks the file, which no backup can mend. Either way the
 * backup is written (a backup of the site as it is beats none) and the manifest and the output say so.
 */
async function explainMissing(
  database: Database,
  absent: string[],
  log: (line: string) => void,
): Promise<MissingFile[]> {
  if (absent.length === 0) return [];
  const live = new Set((await listReferencedFiles(database)).map((file) => file.key));
  return absent.map((key) => {
    const reason = live.has(key) ? 'missing-in-store' : 'deleted-during-backup';
    log(
      reason === 'missing-in-store'
        ? `  missing: ${key} is named by the database but the store does not have it`
        : `  deleted during the backup: ${key} (its row was removed after the snapshot)`,
    );
    return { key, reason };
  });
}

/** STORAGE=postgres: keys the snapshot's rows name that its stored files lack. */
function missingInDatabase(state: DatabaseState, log: (line: string) => void): MissingFile[] {
  const stored = new Set(state.inDatabase.map((file) => file.key));
  return state.referenced
    .filter((file) => !stored.has(file.key))
    .map((file): MissingFile => {
      log(`  missing: ${file.key} is named by the database but the store does not have it`);
      return { key: file.key, reason: 'missing-in-store' };
    });
}

async function backupEmbedded(dir: string, options: BackupOptions): Promise<BackupResult> {
  const { config, log } = options;
  const dataDir = path.join(config.dataDir, 'pglite');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new BackupRefusal(
      EXIT.failed,
      `There is no embedded database at ${dataDir}. With PostgreSQL, set DATABASE_URL as the API has it.`,
    );
  }
  // PGlite writes it when it opens the directory and removes it when it closes: the API is running (or
  // was killed). Two processes in one data directory would corrupt it.
  if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
    throw new BackupRefusal(
      EXIT.target,
      `The embedded database at ${dataDir} is open in another process (its postmaster.pid is there). ` +
        'Stop the API first (one process at a time may open it), then run the backup. If nothing runs, ' +
        'the API was not stopped cleanly: start it once and stop it with Ctrl-C or SIGTERM.',
    );
  }
  const pglite = await PGlite.create({ dataDir });
  const database = await openDatabase({ pglite });
  let storage: Storage | null = null;
  try {
    const query: StorageSql['query'] = (text, values) => database.query(text, values);
    const server = await serverInfo(query);
    log(`Backing up the embedded database (PostgreSQL ${server.serverVersion}) at ${dataDir}.`);
    storage = createStorage(config, database, options.s3Credentials);
    const state = await readState(query, config.STORAGE, log);
    const plan = storagePlan(config.STORAGE, options.copyS3 === true);
    const copier = new FileCopier(storage, dir, log);
    let missing: MissingFile[] = [];
    if (plan.files === 'copied') {
      const types = new Map(state.referenced.map((f) => [f.key, f.contentType]));
      const keys = [...new Set([...(await storage.list('')), ...state.referenced.map((f) => f.key)])];
      log(`Copying the ${keys.length} files of the ${config.STORAGE} store…`);
      missing = await explainMissing(database, await copier.copy(keys, types), log);
    } else if (plan.files === 'in-database') {
      missing = missingInDatabase(state, log);
    }
    log('Dumping the database (PGlite dumpDataDir)…');
    const dumpFile = path.join(dir, PGLITE_DUMP_FILE);
    const tarball = await pglite.dumpDataDir('gzip');
    writeFileSync(dumpFile, Buffer.from(await tarball.arrayBuffer()));
    const files = plan.files === 'copied' ? [...copier.copied.values()] : state.inDatabase;
    const manifest = manifestOf(
      options,
      server,
      {
        dumpTool: 'PGlite dumpDataDir (gzip)',
        dumpMajor: null,
        format: 'pglite-datadir',
        file: PGLITE_DUMP_FILE,
        ...(await hashFile(dumpFile)),
      },
      state,
      files,
      missing,
    );
    writeManifest(dir, manifest);
    describe(manifest, log);
    return { manifest, missing };
  } finally {
    await storage?.close();
    await database.close();
  }
}
