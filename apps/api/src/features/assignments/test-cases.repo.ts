import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assignments, submissionFiles, submissions, testCases } from '../../db/schema-assignments.ts';
import { statementCache } from '../../db/prepared.ts';
import { inIntArray } from '../../db/int-array.ts';

export type TestCaseRow = typeof testCases.$inferSelect;
export type TestCaseFields = Omit<
  typeof testCases.$inferInsert,
  'id' | 'assignmentId' | 'createdAt' | 'updatedAt'
>;

const listStatement = statementCache(
  () => 'test_cases_list',
  (db, _key: null, name) =>
    db
      .select()
      .from(testCases)
      .where(eq(testCases.assignmentId, sql.placeholder('assignmentId')))
      .orderBy(asc(testCases.position), asc(testCases.id))
      .prepare(name),
);

/** The test cases of an assignment in their order. */
export function listTestCases(db: Executor, assignmentId: number): Promise<TestCaseRow[]> {
  return listStatement(db, null).execute({ assignmentId });
}

export async function findTestCase(
  db: Executor,
  assignmentId: number,
  id: number,
): Promise<TestCaseRow | null> {
  const [row] = await db
    .select()
    .from(testCases)
    .where(and(eq(testCases.assignmentId, assignmentId), eq(testCases.id, id)))
    .limit(1);
  return row ?? null;
}

/** How many test cases the assignment has, and the position after the last. */
export async function testCaseCount(
  db: Executor,
  assignmentId: number,
): Promise<{ count: number; next: number }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`.mapWith(Number),
      next: sql<number>`coalesce(max(${testCases.position}) + 1, 0)::int`.mapWith(Number),
    })
    .from(testCases)
    .where(eq(testCases.assignmentId, assignmentId));
  return row ?? { count: 0, next: 0 };
}

export async function insertTestCase(
  db: Executor,
  assignmentId: number,
  fields: TestCaseFields,
): Promise<TestCaseRow> {
  const [row] = await db
    .insert(testCases)
    .values({ ...fields, assignmentId })
    .returning();
  return row!;
}

export async function updateTestCase(
  db: Executor,
  assignmentId: number,
  id: number,
  fields: Partial<TestCaseFields>,
): Promise<TestCaseRow | null> {
  const [row] = await db
    .update(testCases)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(testCases.assignmentId, assignmentId), eq(testCases.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteTestCase(db: Executor, assignmentId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(testCases)
    .where(and(eq(testCases.assignmentId, assignmentId), eq(testCases.id, id)))
    .returning({ id: testCases.id });
  return rows.length > 0;
}

/** Gives the test cases positions 0, 1, 2, … in the order of `ids`, in one statement. */
export async function setPositions(db: Executor, assignmentId: number, ids: number[]): Promise<void> {
  await db
    .update(testCases)
    .set({
      position: sql`array_position(${sql.param(ids)}::int[], ${testCases.id}) - 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(testCases.assignmentId, assignmentId), inIntArray(testCases.id, ids)));
}

/* ─── Reference runs ─────────────────────────────────────────────────────────────────────────── */

export async function setReferenceSolution(db: Executor, assignmentId: number, code: string): Promise<void> {
  await db
    .update(assignments)
    .set({ referenceSolution: code, updatedAt: sql`now()` })
    .where(eq(assignments.id, assignmentId));
}

/** A Pending submission marked `is_reference`, holding one file; its id. */
export async function insertReferenceSubmission(
  db: Executor,
  row: { assignmentId: number; courseId: number; userId: number; filename: string; content: Buffer },
): Promise<number> {
  const [submission] = await db
    .insert(submissions)
    .values({
      assignmentId: row.assignmentId,
      courseId: row.courseId,
      userId: row.userId,
      isReference: true,
      status: 'Pending',
    })
    .returning({ id: submissions.id });
  await db.insert(submissionFiles).values({
    submissionId: submission!.id,
    filename: row.filename,
    content: row.content,
    size: row.content.length,
  });
  return submission!.id;
}
