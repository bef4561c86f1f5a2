/**
 * What a backup folder holds and how `npm run backup` and `npm run restore` check it (docs/deploy.md,
 * "Backups"): `manifest.json` names the Kadai version, the schema's last migration, the database's
 * driver and version, every table's row count and every file with its size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { z } from 'zod';
import { STORAGE_KINDS } from '@kadai/storage';
import { MIGRATIONS_DIR } from '../db/migrate.ts';

export const MANIFEST_FILE = 'manifest.json';
/** The database of a PostgreSQL server: `pg_dump --format=custom`. */
export const PG_DUMP_FILE = 'database.dump';
/** The embedded database: PGlite's `dumpDataDir`, a gzipped tarball of its data directory. */
export const PGLITE_DUMP_FILE = 'database.pglite.tar.gz';
/** Copies of the file store's objects, each under its key. */
export const FILES_DIR = 'files';

/** The exit codes of both commands, documented in docs/deploy.md ("Backups"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** The target (database, file store, backup folder) is not empty, or the embedded database is open. */
  target: 3,
  /** The backup is damaged: a checksum, a size or a file does not match its manifest. */
  damaged: 4,
  /** Versions that cannot work together: the schema, the driver or PostgreSQL's programs. */
  version: 5,
} as const;

/** A refusal with its exit code and a message for the operator (no stack trace). */
export class BackupRefusal extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const BackupFile = z.object({
  key: z.string().min(1),
  size: z.number().int().min(0),
  sha256: Sha256,
  contentType: z.string(),
});
export type BackupFile = z.infer<typeof BackupFile>;

export const Manifest = z.object({
  format: z.literal('kadai-backup'),
  formatVersion: z.literal(1),
  kadaiVersion: z.string(),
  createdAt: z.iso.datetime(),
  schema: z.object({
    /** The last migration applied to the backed-up database (`0024_notifications`). */
    migration: z.string(),
    /** Its drizzle timestamp (`when` in meta/_journal.json, `created_at` in drizzle.__drizzle_migrations). */
    migratedAt: z.number().int(),
    /** Migrations applied in all. */
    count: z.number().int().min(0),
  }),
  database: z.object({
    driver: z.enum(['postgres', 'pglite']),
    /** `SHOW server_version` of the backed-up server. */
    serverVersion: z.string(),
    serverMajor: z.number().int(),
    /** What made the dump: `pg_dump (PostgreSQL) 15.20 (…)` or `PGlite dumpDataDir`. */
    dumpTool: z.string(),
    dumpMajor: z.number().int().nullable(),
    format: z.enum(['pg_dump-custom', 'pglite-datadir']),
    file: z.string(),
    size: z.number().int().min(0),
    sha256: Sha256,
  }),
  /** Rows of every table (`schema.table`) in the dump's snapshot. */
  tables: z.record(z.string(), z.number().int().min(0)),
  storage: z.object({
    kind: z.enum(STORAGE_KINDS),
    /**
     * `copied`: every object is under files/ (and in `files`); `in-database`: the objects are rows of
     * the dump (STORAGE=postgres; `files` lists them, nothing is copied twice); `not-copied`: S3, whose
     * bucket versioning is the backup of the objects (`referencedKeys` says which the dump needs).
     */
    files: z.enum(['copied', 'in-database', 'not-copied']),
    note: z.string(),
    /** Every key the dump's rows refer to (assignment files, forum files, videos). */
    referencedKeys: z.array(z.string()),
    /**
     * Keys of the dump without a file: `deleted-during-backup` (the row went after the snapshot and
     * the file with it: a restore shows what the site did a moment later) or `missing-in-store` (the
     * running site itself lacked the file when backed up).
     */
    missing: z.array(
      z.object({ key: z.string(), reason: z.enum(['deleted-during-backup', 'missing-in-store']) }),
    ),
  }),
  files: z.array(BackupFile),
  /**
   * A fingerprint of the server secret (JWT_SECRET) that sealed the secrets kept in the database (an
   * OIDC client secret, SAML and LTI keys): not the secret, which the backup does not hold.
   */
  secretFingerprint: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;
export type MissingFile = Manifest['storage']['missing'][number];

/** Reads and checks `DIR/manifest.json`; a missing or malformed one is a damaged backup. */
export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupRefusal(
      EXIT.damaged,
      `${path.join(dir, MANIFEST_FILE)} is missing: not a Kadai backup, or one that did not finish.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefusal(EXIT.damaged, `${MANIFEST_FILE} is not JSON: the backup is damaged.`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new BackupRefusal(
      EXIT.damaged,
      `${MANIFEST_FILE} is not a Kadai backup manifest (${problems.join('; ')}).`,
    );
  }
  return parsed.data;
}

/** A pass-through stream that hashes and counts what crosses it. */
export class HashingStream extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** SHA-256 and size of a stream's bytes, read to its end. */
export async function hashStream(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const bytes: Uint8Array = chunk instanceof Uint8Array ? chunk : Buffer.from(String(chunk));
    hash.update(bytes);
    size += bytes.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** SHA-256 and size of a file, streamed. */
export function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  return hashStream(createReadStream(file));
}

/** Not the secret: a one-way fingerprint, enough to tell whether two sites share it. */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(`kadai backup fingerprint\0${secret}`).digest('hex').slice(0, 16);
}

export interface MigrationStep {
  tag: string;
  when: number;
}

/** The migrations this code carries, in order (meta/_journal.json, as drizzle's migrator reads it). */
export function codeMigrations(folder = MIGRATIONS_DIR): MigrationStep[] {
  const journal = z
    .object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })) })
    .parse(JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')));
  return journal.entries.map((entry) => ({ tag: entry.tag, when: entry.when }));
}

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The last migration drizzle recorded in a database (`created_at` is the migration's `when`), named by
 * this code's journal when it knows it; null when the database was never migrated.
 */
export async function databaseMigration(
  query: Query,
  known: MigrationStep[] = codeMigrations(),
): Promise<{ migration: string; migratedAt: number; count: number } | null> {
  const { rows: exists } = await query(
    `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS ok`,
  );
  if (exists[0]?.ok !== true) return null;
  const { rows } = await query(
    `SELECT count(*)::int AS count, max(created_at)::text AS last FROM drizzle.__drizzle_migrations`,
  );
  const count = Number(rows[0]?.count ?? 0);
  if (count === 0 || rows[0]?.last == null) return null;
  const migratedAt = Number(rows[0].last);
  const step = known.find((m) => m.when === migratedAt);
  return { migration: step?.tag ?? `unknown (created_at ${migratedAt})`, migratedAt, count };
}

/**
 * Every table outside PostgreSQL's own schemas (Kadai's, drizzle's migrations, pg-boss's queue) with
 * its row count, as `schema.table`, sorted. Run inside the backup's snapshot, the counts are the dump's.
 */
export async function countRows(query: Query): Promise<Record<string, number>> {
  const { rows } = await query(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
      ORDER BY 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const schema = String(row.schema);
    const name = String(row.name);
    const quoted = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;
    // ONLY: a partitioned table's rows are counted once, in its partitions.
    const { rows: n } = await query(`SELECT count(*)::bigint::text AS n FROM ONLY ${quoted}`);
    counts[`${schema}.${name}`] = Number(n[0]?.n ?? 0);
  }
  return counts;
}

/** The user relations of a database (tables, views, sequences), for the restore's "is it empty" check. */
export async function userRelations(query: Query): Promise<string[]> {
  const { rows } = await query(
    `SELECT n.nspname || '.' || c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
      ORDER BY 1`,
  );
  return rows.map((row) => String(row.name));
}
