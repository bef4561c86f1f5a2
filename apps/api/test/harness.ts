import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { z } from 'zod';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { startGrader, type Grader, type GraderOptions } from '@kadai/grader/worker';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { remoteGraderProbe } from '../src/features/pygrade/console.service.ts';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/lib/context.ts';
import { createStoppedQueue, startJobQueue, type JobQueue } from '../src/lib/jobs.ts';
import { createStorage } from '../src/lib/storage.ts';
import { TEST_S3_CREDENTIALS } from '@kadai/storage/testing';
import { givePgliteBack, takePglite } from './pglite-pool.ts';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  database: Database;
  /** The in-process grader, when started with `grader`. */
  grader: Grader | null;
  /** The test's own PostgreSQL database (TEST_DATABASE_URL runs); undefined on PGlite. */
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables, as they would be set in production. */
  env?: Record<string, string>;
  /** Start pg-boss (slower; only for tests of background work). */
  jobs?: boolean;
  sandboxOk?: boolean;
  /** Like RUN_GRADER=false: no grader here; /api/health reports the grader hosts' heartbeats. */
  remoteGraders?: boolean;
  /**
   * Start the job queue and an in-process grader (the real sandbox, 2 slots) with short poll,
   * heartbeat and sweep intervals; an object overrides grader options (e.g. `runSandboxed`).
   * /api/health then reports this grader's sandbox.
   */
  grader?: boolean | Partial<GraderOptions>;
  /** Serve a built web app from here (default: none). */
  webDistDir?: string;
  /**
   * Another API instance on the same database as this app (as behind a load balancer); closing it
   * leaves the database to its owner.
   */
  sameDatabaseAs?: Pick<TestApp, 'database' | 'databaseUrl'>;
}

/**
 * The file store of the run: TEST_STORAGE=postgres|s3 (scripts/test.mjs runs the file tests once with
 * each), else the local default. On s3, each app gets a prefix of its own in the run's bucket, on the
 * S3 server test/global-setup.ts started.
 */
export function testStorageEnv(): Record<string, string> {
  const store = process.env.TEST_STORAGE;
  if (!store || store === 'local') return {};
  if (store === 'postgres') return { STORAGE: 'postgres' };
  if (store !== 's3') throw new Error(`TEST_STORAGE: local, postgres or s3, not ${store}`);
  return {
    STORAGE: 's3',
    S3_ENDPOINT: inject('s3Endpoint'),
    S3_BUCKET: inject('s3Bucket'),
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: `t-${randomBytes(6).toString('hex')}`,
  };
}

/**
 * A whole API on a fresh database: PGlite loaded from the migrated template, or, when
 * TEST_DATABASE_URL is set, a new database on that PostgreSQL server (dropped by close()).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://lms.test',
    // Two test files share the box with PGlite's WebAssembly: a late event loop here is the box, not a
    // flood of calls (lib/load-shedding.unit.test.ts checks that bound).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...testStorageEnv(),
    ...options.env,
  });

  let dropDatabase: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  let database: Database;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (options.sameDatabaseAs) {
    database = { ...options.sameDatabaseAs.database, close: async () => {} };
    databaseUrl = options.sameDatabaseAs.databaseUrl;
  } else if (serverUrl) {
    const name = `kadai_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    // A copy of the run's migrated template (test/global-setup.ts); migrating here only without one.
    const template = inject('pgTemplate');
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    database = await openDatabase({ databaseUrl, poolSize: 5 });
    if (!template) await migrateDatabase(database);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    // The template's state, from this worker's pool (test/pglite-pool.ts); close() gives it back.
    const pglite = await takePglite();
    const opened = await openDatabase({ pglite });
    database = { ...opened, close: () => givePgliteBack(pglite) };
  }

  const withGrader = options.grader !== undefined && options.grader !== false;
  const jobs: JobQueue =
    options.jobs || withGrader
      ? await startJobQueue(database, { pollingIntervalSeconds: 0.5 })
      : createStoppedQueue();
  let grader: Grader | null = null;
  const sandboxOk = options.sandboxOk ?? true;
  // Files go under the test's own DATA_DIR (removed by close()), in its database, or under its S3 prefix.
  const storage = createStorage(config, database, { s3Credentials: TEST_S3_CREDENTIALS });
  const app = await buildApp({
    config,
    database,
    jobs,
    storage,
    logger: false,
    webDistDir: options.webDistDir ?? path.join(dataDir, 'no-web'),
    sandbox: options.remoteGraders
      ? remoteGraderProbe(database.db)
      : async () =>
          grader
            ? grader.sandbox
            : {
                ok: sandboxOk,
                detail: sandboxOk ? 'test sandbox' : 'Sandbox unavailable: missing bubblewrap',
              },
  });
  await app.ready();
  if (withGrader) {
    grader = await startGrader({
      sql: database,
      jobs,
      readAttachment: (key) => storage.read(key),
      log: app.log,
      concurrency: 2,
      gradingTimeoutSeconds: config.GRADING_TIMEOUT,
      heartbeatMs: 200,
      sweepMs: 500,
      staleAfterMs: 2000,
      resendAfterMs: 3000,
      ...(typeof options.grader === 'object' ? options.grader : {}),
    });
  }
  const ctx = app.appContext;
  return {
    app,
    ctx,
    config,
    database,
    grader,
    databaseUrl,
    async close() {
      await app.close();
      await grader?.stop();
      await jobs.stop();
      await storage.close();
      await database.close();
      if (dropDatabase) await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: unknown;
  /** The body as a record, for reading fields in assertions. */
  json: Record<string, unknown>;
}

/** One request through Fastify's inject (no socket); JSON in, JSON out. */
export async function call(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await t.app.inject({
    method,
    url,
    headers,
    query: options.query,
    ...(options.body !== undefined
      ? typeof options.body === 'string'
        ? { payload: options.body, headers: { 'content-type': 'application/json', ...headers } }
        : {
            payload: JSON.stringify(options.body),
            headers: { 'content-type': 'application/json', ...headers },
          }
      : {}),
  });
  let body: unknown = response.body;
  try {
    body = response.body.length > 0 ? JSON.parse(response.body) : null;
  } catch {
    // Not JSON (HTML, CSV): keep the text.
  }
  const json =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  return { status: response.statusCode, headers: response.headers, body, json };
}

const OpenApiPaths = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * The routes the API documents (its OpenAPI paths) whose path `belongs`, as sorted "METHOD /path"
 * lines: what an authorization matrix compares its rows with, so a new route without a row fails.
 */
export async function documentedRoutes(t: TestApp, belongs: (path: string) => boolean): Promise<string[]> {
  const doc = await call(t, 'GET', '/api/docs/json');
  return Object.entries(OpenApiPaths.parse(doc.json.paths))
    .filter(([path]) => belongs(path))
    .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

/**
 * Polls until `check` holds, at most 3 s: for changes made outside the API (raw SQL, as another
 * instance or psql would), which reach its session cache by NOTIFY just after they commit.
 */
export async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the change was not seen within 3 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
