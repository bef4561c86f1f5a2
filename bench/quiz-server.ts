// The real API for `npm run bench:quiz`, on a fresh database (embedded PGlite, or DATABASE_URL): one
// course with BENCH_STUDENTS students (each with a session and an access token), its editor, and an
// open quiz of every question kind (timed when BENCH_TIME_LIMIT > 0 minutes). Prints one JSON line
// with the port, the ids and the tokens.
import { QuestionInput } from '@kadai/contracts';
import { courseEditors, courseStudents, courses, users } from '../apps/api/src/db/schema.ts';
import { openBenchDatabase, serveBenchApi, signInForBench } from './bench-api.ts';
import { toNewQuestions } from '../apps/api/src/features/quizzes/questions.ts';
import { insertQuizWithCourses } from '../apps/api/src/features/quizzes/quizzes.service.ts';
import { ALL_KINDS } from '../apps/api/src/features/quizzes/sample-questions.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const TIME_LIMIT = Number(process.env.BENCH_TIME_LIMIT ?? 0);

const bench = await openBenchDatabase('quiz');
const { db } = bench.database;
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
const tokens = await signInForBench(
  bench,
  students.map((s) => s.id),
  7200,
);

const {
  quiz,
  quizCourseIds: [quizCourseId],
} = await insertQuizWithCourses(
  db,
  { title: 'Final exam', description: 'Good luck.', createdBy: editor!.id },
  toNewQuestions(ALL_KINDS.map((q) => QuestionInput.parse(q))),
  [
    {
      courseId: course!.id,
      opensAt: new Date(Date.now() - 60_000),
      closesAt: new Date(Date.now() + 2 * 3_600_000),
      timeLimitMinutes: TIME_LIMIT > 0 ? TIME_LIMIT : null,
      scoresVisibleAt: new Date(Date.now() - 60_000),
      answersVisibleAt: null,
    },
  ],
);

await serveBenchApi(bench, { courseId: course!.id, quizId: quiz.id, quizCourseId, tokens });
