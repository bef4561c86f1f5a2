import { and, asc, eq, inArray, not, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseEditors, courseStudents, courses } from '../../db/schema.ts';
import { assignmentCourses, assignments, submissions, testCases } from '../../db/schema-assignments.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { inIntArray } from '../../db/int-array.ts';
import { ownAssignmentDates, ownAssignmentExtension, ownAssignmentExtensionOn } from '../../db/own-dates.ts';

export type AssignmentRow = typeof assignments.$inferSelect;
export type NewAssignmentRow = typeof assignments.$inferInsert;
export type AssignmentFields = Omit<NewAssignmentRow, 'id' | 'createdAt' | 'updatedAt' | 'createdBy'>;

/** One course of an assignment with that course's dates, and how the viewer stands to the course. */
export interface LinkView {
  assignmentId: number;
  courseId: number;
  courseTitle: string;
  opensAt: Date;
  dueAt: Date;
  lateUntil: Date | null;
  leaderboardEnabled: boolean;
  /** `dueAt` and `lateUntil` are the viewer's own, from an extension (docs/extensions.md). */
  extended: boolean;
  isEditor: boolean;
  isStudent: boolean;
}

export interface LinkInput {
  courseId: number;
  opensAt: Date;
  dueAt: Date;
  lateUntil: Date | null;
  leaderboardEnabled: boolean;
}

export interface TestCaseTotals {
  count: number;
  points: number;
}

/*
 * Correlated subqueries name both sides explicitly: drizzle leaves columns unqualified in one-table
 * queries and renders an aliased table by its alias alone, either of which would bind the wrong column.
 */
const viewerId = sql.placeholder('userId');
const memberAlias = sql.identifier('m');
const memberColumn = (column: AnyColumn) => sql`${memberAlias}.${sql.identifier(column.name)}`;
/** Whether the viewer is on `table`'s list of the course in `courseColumn` (of the outer query). */
export const isMemberOf = (table: typeof courseEditors | typeof courseStudents, courseColumn: AnyColumn) =>
  sql<boolean>`exists (select 1 from ${table} as ${memberAlias} where ${memberColumn(table.courseId)} = ${courseColumn} and ${memberColumn(table.userId)} = ${viewerId})`.mapWith(
    Boolean,
  );

const assignmentStatement = statementCache(
  () => 'assignment_by_id',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select()
        .from(assignments)
        .where(eq(assignments.id, sql.placeholder('id')))
        .limit(1),
      name,
    ),
);

export async function findAssignment(db: Executor, id: number): Promise<AssignmentRow | null> {
  const rows = await assignmentStatement(db, null).execute({ id });
  return rows[0] ?? null;
}

export function listAssignmentsByIds(db: Executor, ids: number[]): Promise<AssignmentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(assignments).where(inArray(assignments.id, ids));
}

const linksStatement = statementCache(
  () => 'assignment_links',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({
          assignmentId: assignmentCourses.assignmentId,
          courseId: assignmentCourses.courseId,
          courseTitle: courses.title,
          opensAt: assignmentCourses.opensAt,
          ...ownAssignmentDates,
          leaderboardEnabled: assignmentCourses.leaderboardEnabled,
          isEditor: isMemberOf(courseEditors, assignmentCourses.courseId),
          isStudent: isMemberOf(courseStudents, assignmentCourses.courseId),
        })
        .from(assignmentCourses)
        .innerJoin(courses, eq(courses.id, assignmentCourses.courseId))
        .leftJoin(ownAssignmentExtension, ownAssignmentExtensionOn(viewerId))
        .where(inIntArray(assignmentCourses.assignmentId, sql.placeholder('ids')))
        .orderBy(asc(assignmentCourses.assignmentId), asc(assignmentCourses.dueAt), asc(courses.id)),
      name,
    ),
);

/** Every course of the given assignments, with the viewer's relation to each and their own dates. */
export async function listLinks(db: Executor, assignmentIds: number[], userId: number): Promise<LinkView[]> {
  if (assignmentIds.length === 0) return [];
  return linksStatement(db, null).execute({ ids: assignmentIds, userId });
}

const totalsStatement = statementCache(
  () => 'assignment_test_totals',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({
          assignmentId: testCases.assignmentId,
          count: sql<number>`count(*)::int`.mapWith(Number),
          points: sql<number>`coalesce(sum(${testCases.points}), 0)::int`.mapWith(Number),
        })
        .from(testCases)
        // A draft (a pytest module that does not collect) is not part of the assignment yet.
        .where(and(inIntArray(testCases.assignmentId, sql.placeholder('ids')), eq(testCases.draft, false)))
        .groupBy(testCases.assignmentId),
      name,
    ),
);

/** How many test cases each assignment has and their points (without drafts; no tests: 0 and 0). */
export async function testCaseTotals(db: Executor, ids: number[]): Promise<Map<number, TestCaseTotals>> {
  const totals = new Map<number, TestCaseTotals>(ids.map((id) => [id, { count: 0, points: 0 }]));
  if (ids.length === 0) return totals;
  for (const row of await totalsStatement(db, null).execute({ ids })) {
    totals.set(row.assignmentId, { count: row.count, points: row.points });
  }
  return totals;
}

/** Takes the assignment's row lock: writes to its files, tests and courses queue behind each other. */
export async function lockAssignment(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .select({ id: assignments.id })
    .from(assignments)
    .where(eq(assignments.id, id))
    .for('update');
  return rows.length > 0;
}

export async function insertAssignment(
  db: Executor,
  fields: AssignmentFields & { createdBy: number },
): Promise<AssignmentRow> {
  const [row] = await db.insert(assignments).values(fields).returning();
  return row!;
}

export async function updateAssignment(
  db: Executor,
  id: number,
  fields: Partial<AssignmentFields>,
): Promise<AssignmentRow | null> {
  const [row] = await db
    .update(assignments)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(assignments.id, id))
    .returning();
  return row ?? null;
}

/** Makes the assignment's courses exactly `links`: others are removed, these inserted or updated. */
export async function replaceLinks(db: Executor, assignmentId: number, links: LinkInput[]): Promise<void> {
  const keep = links.map((l) => l.courseId);
  await db
    .delete(assignmentCourses)
    .where(
      and(
        eq(assignmentCourses.assignmentId, assignmentId),
        not(inIntArray(assignmentCourses.courseId, keep)),
      ),
    );
  if (links.length === 0) return;
  await db
    .insert(assignmentCourses)
    .values(links.map((l) => ({ ...l, assignmentId })))
    .onConflictDoUpdate({
      target: [assignmentCourses.assignmentId, assignmentCourses.courseId],
      set: {
        opensAt: sql`excluded.opens_at`,
        dueAt: sql`excluded.due_at`,
        lateUntil: sql`excluded.late_until`,
        leaderboardEnabled: sql`excluded.leaderboard_enabled`,
      },
    });
}

/** Deletes the assignment with its courses, file rows, tests and submissions (ON DELETE CASCADE). */
export async function deleteAssignment(db: Executor, id: number): Promise<boolean> {
  const deleted = await db
    .delete(assignments)
    .where(eq(assignments.id, id))
    .returning({ id: assignments.id });
  return deleted.length > 0;
}

/** Students' submissions (not reference runs) per course of the assignment. */
export async function countStudentSubmissionsByCourse(
  db: Executor,
  assignmentId: number,
): Promise<Map<number, number>> {
  const rows = await db
    .select({ courseId: submissions.courseId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(submissions)
    .where(and(eq(submissions.assignmentId, assignmentId), eq(submissions.isReference, false)))
    .groupBy(submissions.courseId);
  return new Map(rows.map((r) => [r.courseId, r.n]));
}
