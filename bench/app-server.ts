// The real API on a fresh database (embedded PGlite, or DATABASE_URL), with a student in 25 courses so
// a 20-row page of GET /api/Course/ is full. Prints one JSON line with the port and an access token.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { authSessions, courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { buildApp } from '../apps/api/src/app.ts';
import { signAccessToken } from '../apps/api/src/features/auth/tokens.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
});
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir,
  poolSize: config.DATABASE_POOL_SIZE,
});
await migrateDatabase(database);

const { db } = database;
const [student] = await db
  .insert(users)
  .values({ email: 'bench-student@example.com', firstName: 'Bench' })
  .returning();
const [editor] = await db
  .insert(users)
  .values({ email: 'bench-editor@example.com', firstName: 'Editor' })
  .returning();
const extraStudents = await db
  .insert(users)
  .values(Array.from({ length: 60 }, (_, i) => ({ email: `bench-s${i}@example.com` })))
  .returning();
const made = await db
  .insert(courses)
  .values(
    Array.from({ length: 25 }, (_, i) => ({
      title: `Course ${String(i).padStart(2, '0')}`,
      description: 'Benchmark course',
    })),
  )
  .returning();
await db.insert(courseStudents).values(made.map((c) => ({ courseId: c.id, userId: student!.id })));
await db.insert(courseEditors).values(made.map((c) => ({ courseId: c.id, userId: editor!.id })));
await db
  .insert(courseStudents)
  .values(made.flatMap((c) => extraStudents.slice(0, 30).map((s) => ({ courseId: c.id, userId: s.id }))));
// Unrelated courses the student must not see, so the visibility filter has work to do.
await db.insert(courses).values(Array.from({ length: 200 }, (_, i) => ({ title: `Other ${i}` })));

const [session] = await db.insert(authSessions).values({ userId: student!.id }).returning();
const token = await signAccessToken(config.JWT_SECRET, 3600, { userId: student!.id, sessionId: session!.id });

const app = await buildApp({ config, database, logger: false, webDistDir: path.join(dataDir, 'none') });
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ ready: true, port, token }));

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
