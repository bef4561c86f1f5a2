import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes, type QueryOptions } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { createPgSql, openPool } from '@kadai/grader/pg-sql';
import type { PoolStats } from '@kadai/grader/metrics';
import { defaultPoolSize } from '../config.ts';
import * as coreTables from './schema.ts';
import * as assignmentTables from './schema-assignments.ts';
import * as calendarTables from './schema-calendar.ts';
import * as forumTables from './schema-forum.ts';
import * as quizTables from './schema-quizzes.ts';
import * as videoTables from './schema-videos.ts';
import * as workbookTables from './schema-workbooks.ts';
import * as assessmentTables from './schema-assessment.ts';
import * as mailTables from './schema-mail.ts';
import * as submissionTables from './schema-submissions.ts';
import * as clusterTables from './schema-cluster.ts';
import * as extensionTables from './schema-extensions.ts';
import * as similarityTables from './schema-similarity.ts';

/** Every table, for drizzle's typed client (the schema is split by feature into these files). */
const schema = {
  ...coreTables,
  ...assignmentTables,
  ...calendarTables,
  ...forumTables,
  ...quizTables,
  ...videoTables,
  ...workbookTables,
  ...assessmentTables,
  ...mailTables,
  ...submissionTables,
  ...clusterTables,
  ...extensionTables,
  ...similarityTables,
};

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle passed to repositories: the database itself or an open transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface SqlResult {
  rows: Record<string, unknown>[];
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Raw SQL for infrastructure (migrations lock, pg-boss, the grader); features use drizzle through repos. */
  query(text: string, values?: unknown[]): Promise<SqlResult>;
  /** Raw SQL in one transaction on one connection: committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(
    fn: (query: (text: string, values?: unknown[]) => Promise<SqlResult>) => Promise<T>,
  ): Promise<T>;
  /** Applies the migrations in `folder` (drizzle's migrator; the caller holds the lock). */
  applyMigrations(folder: string): Promise<void>;
  /** Runs `fn` on one connection holding a session-level advisory lock. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` (a plain lower-case name): `onNotify` gets each payload, `onState` whether
   * the listening connection is up. On PostgreSQL the connection is its own, outside the pool, and is
   * opened again (after 1 s, doubling up to 30 s) when it fails. Returns how to stop listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string | undefined) => void,
    onState: (up: boolean) => void,
  ): Promise<() => Promise<void>>;
  /** The connection pool's use, for metrics (docs/operations.md); null for the embedded database. */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** An already open PGlite (tests start each file from a migrated dump). */
  pglite?: PGlite;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? defaultPoolSize());
  const client =
    options.pglite ??
    (await (async () => {
      const dir = path.join(options.dataDir ?? './data', 'pglite');
      mkdirSync(dir, { recursive: true });
      return PGlite.create({ dataDir: dir });
    })());
  return openPglite(client);
}

/**
 * `bytea` in and out of PGlite through Node's native hex codec: PGlite's own builds a string per byte,
 * which made the `postgres` file store (chunks of 512 KiB) write at 2 MB/s instead of 20.
 */
const PGLITE_BYTEA: QueryOptions = {
  serializers: {
    [pgliteTypes.BYTEA]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new TypeError('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [pgliteTypes.BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

function openPglite(client: PGlite): Database {
  const pgliteDb = drizzlePglite(client, { schema });
  const db: Db = pgliteDb;
  return {
    db,
    driver: 'pglite',
    applyMigrations: (folder) => migratePglite(pgliteDb, { migrationsFolder: folder }),
    async query(text, values) {
      // PGlite's query() takes one statement; exec() takes several and returns a result per statement.
      if (values && values.length > 0) {
        const r = await client.query<Record<string, unknown>>(text, values, PGLITE_BYTEA);
        return { rows: r.rows };
      }
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    transaction: (fn) =>
      client.transaction((tx) =>
        fn(async (text, values) => ({
          rows: (await tx.query<Record<string, unknown>>(text, values ?? [], PGLITE_BYTEA)).rows,
        })),
      ),
    async withAdvisoryLock(key, fn) {
      // One connection: the lock only matters across processes sharing a server, but keep the shape.
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    },
    async listen(channel, onNotify, onState) {
      checkChannel(channel);
      // One process holds an embedded database: its connection is up for as long as it is open.
      const unlisten = await client.listen(channel, onNotify);
      onState(true);
      return async () => {
        onState(false);
        if (!client.closed) await unlisten();
      };
    },
    // One connection inside this process: nothing to pool.
    poolStats: () => null,
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

function openPostgres(url: string, poolSize: number): Database {
  // A server that does not answer fails the request after 10 s (503, see isDatabaseUnavailable in lib/sql-state.ts) rather than hang.
  const pool = openPool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 }, (err) =>
    console.error('PostgreSQL connection error', err),
  );
  const pgDb = drizzlePg(pool, { schema });
  const db: Db = pgDb;
  return {
    db,
    driver: 'postgres',
    applyMigrations: (folder) => migratePg(pgDb, { migrationsFolder: folder }),
    async query(text, values) {
      const r = await pool.query(text, values);
      const last = Array.isArray(r) ? r.at(-1) : r;
      return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
    },
    transaction: createPgSql(pool).transaction,
    async withAdvisoryLock(key, fn) {
      const conn = await pool.connect();
      try {
        await conn.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await conn.query('SELECT pg_advisory_unlock($1)', [key]);
        }
      } finally {
        conn.release();
      }
    },
    listen: (channel, onNotify, onState) => listenPostgres(url, channel, onNotify, onState),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolSize,
    }),
    async close() {
      await pool.end();
    },
  };
}

const LISTEN_RETRY_MS = { first: 1000, max: 30_000 };

/** Database.listen on PostgreSQL: a connection of its own, opened again whenever it fails. */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string | undefined) => void,
  onState: (up: boolean) => void,
): Promise<() => Promise<void>> {
  checkChannel(channel);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = LISTEN_RETRY_MS.first;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      onState(false);
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      if (client === next) client = null;
      if (!stopped) {
        retry = setTimeout(() => void connect(), delay);
        retry.unref();
        delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
      }
    };
    next.on('error', fail);
    next.on('end', fail);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      fail();
      return;
    }
    if (stopped) {
      failed = true;
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = LISTEN_RETRY_MS.first;
    onState(true);
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = null;
    onState(false);
    if (current) {
      current.removeAllListeners();
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };
}
