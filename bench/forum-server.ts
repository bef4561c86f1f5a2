// The real API for `npm run bench:forum`, on a fresh database (embedded PGlite, or DATABASE_URL): one
// course whose forum holds BENCH_TOPICS topics and BENCH_COMMENTS comments (bench/forum-seed.ts), its
// editor, 60 students who wrote them, and the measured student (a member who has read a tenth of the
// topics), signed in. Prints one JSON line with the port, the course id, the token and what was seeded.
import { courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { openBenchDatabase, serveBenchApi, signInForBench } from './bench-api.ts';
import { seedForum } from './forum-seed.ts';

const TOPICS = Number(process.env.BENCH_TOPICS ?? 50_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 50_000);
const AUTHORS = 60;

const bench = await openBenchDatabase('forum');
const { database } = bench;

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
const [token] = await signInForBench(bench, [viewer!.id], 7200);

const seeded = await seedForum((text, values) => database.query(text, values), {
  courseId: course!.id,
  editorId: editor!.id,
  viewerId: viewer!.id,
  authorIds: authors.map((a) => a.id),
  topics: TOPICS,
  comments: COMMENTS,
});

await serveBenchApi(bench, { courseId: course!.id, token, seeded });
