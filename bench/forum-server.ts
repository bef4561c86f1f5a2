// The real API for `npm run bench:forum`, on a fresh database (embedded PGlite, or DATABASE_URL): one
// course whose forum holds BENCH_TOPICS topics and BENCH_COMMENTS comments (bench/forum-seed.ts), its
// editor, 60 students who wrote them, and the measured student (a member who has read a tenth of the
// topics), signed in. Prints one JSON line with the port, the course id, the token and what was seeded.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { authSessions, courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { buildApp } from '../apps/api/src/app.ts';
import { signAccessToken } from '../apps/api/src/features/auth/tokens.ts';
import { seedForum } from './forum-seed.ts';

const TOPICS = Number(process.env.BENCH_TOPICS ?? 50_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 50_000);
const AUTHORS = 60;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-forum-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL || undefined,
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
const [course] = await db
  .insert(courses)
  .values({ title: 'Introduction to Programming with Python', description: 'Forum benchmark course' })
  .returning();
const [editor] = await db
  .insert(users)
  .values({ email: 'bench-editor@example.com', firstName: 'Emily', lastName: 'Carter' })
  .returning();
const [viewer] = await db
  .insert(users)
  .values({ email: 'bench-viewer@example.com', firstName: '太郎', lastName: '山田' })
  .returning();
const authors = await db
  .insert(users)
  .values(
    Array.from({ length: AUTHORS }, (_, i) => ({
      email: `bench-author-${i}@example.com`,
      firstName: i % 2 === 0 ? '学生' : 'Student',
      lastName: String(i),
    })),
  )
  .returning({ id: users.id });
await db.insert(courseEditors).values({ courseId: course!.id, userId: editor!.id });
await db
  .insert(courseStudents)
  .values([viewer!, ...authors].map((u) => ({ courseId: course!.id, userId: u.id })));
const [session] = await db.insert(authSessions).values({ userId: viewer!.id }).returning();
const token = await signAccessToken(config.JWT_SECRET, 7200, { userId: viewer!.id, sessionId: session!.id });

const seeded = await seedForum((text, values) => database.query(text, values), {
  courseId: course!.id,
  editorId: editor!.id,
  viewerId: viewer!.id,
  authorIds: authors.map((a) => a.id),
  topics: TOPICS,
  comments: COMMENTS,
});

const app = await buildApp({ config, database, logger: false, webDistDir: path.join(dataDir, 'none') });
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ ready: true, port, courseId: course!.id, token, seeded }));

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
