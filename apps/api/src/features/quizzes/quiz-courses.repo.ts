import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { quizCourses, quizSubmissions } from '../../db/schema-quizzes.ts';
import type { QuizCourseFields } from './quizzes.repo.ts';

/* Writes of quiz courses (a quiz given to a course); reads are in quizzes.repo.ts and quiz-lists.repo.ts. */

/** Attempts (started or submitted) per quiz course of the quiz. */
export async function countAttemptsByQuizCourse(db: Executor, quizId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ quizCourseId: quizSubmissions.quizCourseId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(quizSubmissions)
    .innerJoin(quizCourses, eq(quizCourses.id, quizSubmissions.quizCourseId))
    .where(eq(quizCourses.quizId, quizId))
    .groupBy(quizSubmissions.quizCourseId);
  return new Map(rows.map((r) => [r.quizCourseId, r.n]));
}

export async function insertQuizCourses(
  db: Executor,
  quizId: number,
  rows: QuizCourseFields[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(quizCourses)
    .values(rows.map((r) => ({ ...r, quizId })))
    .onConflictDoNothing()
    .returning({ id: quizCourses.id });
  return inserted.map((r) => r.id);
}

export async function updateQuizCourse(
  db: Executor,
  id: number,
  fields: Partial<Omit<QuizCourseFields, 'courseId'>>,
): Promise<boolean> {
  const rows = await db
    .update(quizCourses)
    .set(fields)
    .where(eq(quizCourses.id, id))
    .returning({ id: quizCourses.id });
  return rows.length > 0;
}

export async function deleteQuizCourse(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(quizCourses).where(eq(quizCourses.id, id)).returning({ id: quizCourses.id });
  return rows.length > 0;
}
