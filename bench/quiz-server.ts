// The real API for `npm run bench:quiz`, on a fresh database (embedded PGlite, or DATABASE_URL): one
// course with BENCH_STUDENTS students (each with a session and an access token), its editor, and an
// open quiz of every question kind (timed when BENCH_TIME_LIMIT > 0 minutes). Prints one JSON line
// with the port, the ids and the tokens.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QuestionInput } from '@kadai/contracts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { authSessions, courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { buildApp } from '../apps/api/src/app.ts';
import { signAccessToken } from '../apps/api/src/features/auth/tokens.ts';
import { toNewQuestions } from '../apps/api/src/features/quizzes/questions.ts';
import * as quizzes from '../apps/api/src/features/quizzes/quizzes.repo.ts';
import { insertQuizCourses } from '../apps/api/src/features/quizzes/quiz-courses.repo.ts';
import { ALL_KINDS } from '../apps/api/src/features/quizzes/sample-questions.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const TIME_LIMIT = Number(process.env.BENCH_TIME_LIMIT ?? 0);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-quiz-'));
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
  .values({ title: 'Exam day', description: 'Benchmark course' })
  .returning();
const [editor] = await db.insert(users).values({ email: 'bench-editor@example.com' }).returning();
await db.insert(courseEditors).values({ courseId: course!.id, userId: editor!.id });
const students: { id: number }[] = [];
for (let from = 0; from < STUDENTS; from += 500) {
  const batch = Array.from({ length: Math.min(500, STUDENTS - from) }, (_, i) => ({
    email: `bench-student-${from + i}@example.com`,
    firstName: 'Student',
    lastName: String(from + i),
  }));
  students.push(...(await db.insert(users).values(batch).returning({ id: users.id })));
}
await db.insert(courseStudents).values(students.map((s) => ({ courseId: course!.id, userId: s.id })));
const sessions = await db
  .insert(authSessions)
  .values(students.map((s) => ({ userId: s.id })))
  .returning({ id: authSessions.id, userId: authSessions.userId });
const tokens = await Promise.all(
  sessions.map((s) => signAccessToken(config.JWT_SECRET, 7200, { userId: s.userId, sessionId: s.id })),
);

const quiz = await quizzes.insertQuiz(db, {
  title: 'Final exam',
  description: 'Good luck.',
  createdBy: editor!.id,
});
await quizzes.replaceQuestions(db, quiz.id, toNewQuestions(ALL_KINDS.map((q) => QuestionInput.parse(q))));
const [quizCourseId] = await insertQuizCourses(db, quiz.id, [
  {
    courseId: course!.id,
    opensAt: new Date(Date.now() - 60_000),
    closesAt: new Date(Date.now() + 2 * 3_600_000),
    timeLimitMinutes: TIME_LIMIT > 0 ? TIME_LIMIT : null,
    scoresVisibleAt: new Date(Date.now() - 60_000),
    answersVisibleAt: null,
  },
]);

const app = await buildApp({ config, database, logger: false, webDistDir: path.join(dataDir, 'none') });
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(
  JSON.stringify({ ready: true, port, courseId: course!.id, quizId: quiz.id, quizCourseId, tokens }),
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
