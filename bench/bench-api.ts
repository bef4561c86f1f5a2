// What every bench server (app-server, quiz-server, forum-server) does around its own seeding: a fresh
// database in a temporary data directory (embedded PGlite, or DATABASE_URL), migrated; access tokens
// for seeded users; and the real API listening on BENCH_PORT (0: a free port), announced by one JSON
// line that the bench reads (bench/processes.ts), closed on SIGTERM.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig, type Config } from '../apps/api/src/config.ts';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { authSessions } from '../apps/api/src/db/schema.ts';
import { signAccessToken } from '../apps/api/src/features/auth/tokens.ts';

export interface BenchApi {
  config: Config;
  database: Database;
  dataDir: string;
}

export async function openBenchDatabase(name: string): Promise<BenchApi> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `kadai-bench-${name}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL || undefined,
    // The API's default unless set (twice the CPUs, at least 4).
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE || undefined,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    // Set by bench:api for the server whose metrics it measures (docs/operations.md, "Overhead").
    METRICS_TOKEN: process.env.METRICS_TOKEN || undefined,
  });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrateDatabase(database);
  return { config, database, dataDir };
}

/** A live session and an access token for each user, in the order given. */
export async function signInForBench(
  bench: BenchApi,
  userIds: number[],
  lifetimeSeconds: number,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const sessions = await bench.database.db
    .insert(authSessions)
    .values(userIds.map((userId) => ({ userId })))
    .returning({ id: authSessions.id, userId: authSessions.userId });
  return Promise.all(
    sessions.map((s) =>
      signAccessToken(bench.config.JWT_SECRET, lifetimeSeconds, { userId: s.userId, sessionId: s.id }),
    ),
  );
}

/** Serves the API and prints `{ ready: true, port, ...fields }` on one line. */
export async function serveBenchApi(bench: BenchApi, fields: Record<string, unknown>): Promise<void> {
  const { config, database, dataDir } = bench;
  const app = await buildApp({ config, database, logger: false, webDistDir: path.join(dataDir, 'none') });
  await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ ready: true, port, ...fields }));
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
