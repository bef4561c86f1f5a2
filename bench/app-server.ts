// The real API on a fresh database (embedded PGlite, or DATABASE_URL), with a student in 25 courses so
// a 20-row page of GET /api/Course/ is full. Prints one JSON line with the port and an access token.
// With BENCH_TOKEN, a second API on a database another app-server seeded: it seeds nothing and serves
// with that server's token (bench:api compares two APIs on the same PostgreSQL database this way).
import { courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { openBenchDatabase, serveBenchApi, signInForBench } from './bench-api.ts';

const bench = await openBenchDatabase('api');
const given = process.env.BENCH_TOKEN;
if (given) {
  await serveBenchApi(bench, { token: given });
} else {
  await seedAndServe();
}

async function seedAndServe() {
  const { db } = bench.database;
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

  const [token] = await signInForBench(bench, [student!.id], 3600);
  // Statistics and a visibility map, as a running server's tables have: without them the member counts
  // read the heap (no index-only scans), and autovacuum's first ANALYZE, due about a minute after the
  // seed, would change the plans in the middle of the run.
  await bench.database.query('VACUUM ANALYZE');

  await serveBenchApi(bench, { token });
}
