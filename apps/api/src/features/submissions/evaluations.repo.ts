import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  ownAssignmentClosesAt,
  ownAssignmentExtension,
  ownAssignmentExtensionOn,
} from '../../db/own-dates.ts';
import { courseEditors } from '../../db/schema.ts';
import { assignmentCourses, evaluations, submissions, testCases } from '../../db/schema-assignments.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import type { EvaluationRow } from './submissions.shape.ts';

const evaluationColumns = {
  id: evaluations.id,
  submissionId: evaluations.submissionId,
  testCaseId: evaluations.testCaseId,
  testCaseName: testCases.name,
  position: testCases.position,
  visibility: testCases.visibility,
  maxPoints: testCases.points,
  status: evaluations.status,
  points: evaluations.points,
  reason: evaluations.reason,
  timeMs: evaluations.timeMs,
  memoryKb: evaluations.memoryKb,
  exitCode: evaluations.exitCode,
  signal: evaluations.signal,
  stdin: testCases.stdin,
  expectedStdout: testCases.expectedStdout,
  stdout: evaluations.stdout,
  stderr: evaluations.stderr,
  checkerMessage: evaluations.checkerMessage,
  items: evaluations.items,
  overriddenBy: evaluations.overriddenBy,
  comment: evaluations.comment,
  createdAt: evaluations.createdAt,
};

const bySubmissionStatement = statementCache(
  () => 'evaluations_of_submission',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select(evaluationColumns)
        .from(evaluations)
        .innerJoin(testCases, eq(testCases.id, evaluations.testCaseId))
        .where(eq(evaluations.submissionId, sql.placeholder('submissionId')))
        .orderBy(asc(testCases.position), asc(testCases.id)),
      name,
    ),
);

/** The evaluations of one submission in the order of its assignment's test cases. */
export function listEvaluationsOfSubmission(db: Executor, submissionId: number): Promise<EvaluationRow[]> {
  return bySubmissionStatement(db, null).execute({ submissionId });
}

export interface EvaluationListFilter {
  viewer: { userId: number; isStaff: boolean };
  submissionId?: number;
  status?: 'Correct' | 'Wrong';
  ordering: 'id' | '-id' | 'position' | '-position';
  limit: number;
  offset: number;
}

export type EvaluationListRow = EvaluationRow & { closesAt: Date; canManage: boolean };

/**
 * `GET Evaluation/`: evaluations of the submissions the viewer may see (their own, not reference runs;
 * every one of the courses they edit; staff: all). Reference runs are listed only when their
 * submission is asked for by id. One page, the total, and whether the viewer manages each row's course.
 */
export async function listEvaluations(
  db: Executor,
  filter: EvaluationListFilter,
): Promise<{ count: number; rows: EvaluationListRow[] }> {
  const { userId, isStaff } = filter.viewer;
  const edits = sql`${submissions.courseId} in (select ${courseEditors.courseId} from ${courseEditors} where ${courseEditors.userId} = ${userId})`;
  const visible = isStaff
    ? undefined
    : or(and(eq(submissions.userId, userId), eq(submissions.isReference, false)), edits);
  const where = and(
    visible,
    filter.submissionId === undefined
      ? eq(submissions.isReference, false)
      : eq(evaluations.submissionId, filter.submissionId),
    filter.status ? eq(evaluations.status, filter.status) : undefined,
  );
  const canManage: SQL<boolean> = isStaff ? sql<boolean>`true` : sql<boolean>`${edits}`;
  const dir = filter.ordering.startsWith('-') ? desc : asc;
  const order = filter.ordering.endsWith('position')
    ? [dir(evaluations.submissionId), dir(testCases.position), dir(evaluations.id)]
    : [dir(evaluations.id)];
  const rows = await db
    .select({
      ...evaluationColumns,
      // The author's last accepted moment: after_due tests show after it (docs/extensions.md).
      closesAt: ownAssignmentClosesAt,
      canManage: canManage.mapWith(Boolean),
      total: sql<number>`(count(*) over ())::int`.mapWith(Number),
    })
    .from(evaluations)
    .innerJoin(testCases, eq(testCases.id, evaluations.testCaseId))
    .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
    .innerJoin(
      assignmentCourses,
      and(
        eq(assignmentCourses.assignmentId, submissions.assignmentId),
        eq(assignmentCourses.courseId, submissions.courseId),
      ),
    )
    .leftJoin(ownAssignmentExtension, ownAssignmentExtensionOn(submissions.userId))
    .where(where)
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset);
  const count =
    rows[0]?.total ??
    (filter.offset > 0
      ? ((
          await db
            .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
            .from(evaluations)
            .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
            .innerJoin(
              assignmentCourses,
              and(
                eq(assignmentCourses.assignmentId, submissions.assignmentId),
                eq(assignmentCourses.courseId, submissions.courseId),
              ),
            )
            .where(where)
        )[0]?.n ?? 0)
      : 0);
  return { count, rows: rows.map(({ total: _total, ...row }) => row) };
}

/** Sets one test's result by hand; the row is created when the test was added after grading. */
export async function upsertOverride(
  db: Executor,
  row: {
    submissionId: number;
    testCaseId: number;
    status: 'Correct' | 'Wrong';
    points: number;
    overriddenBy: number;
    comment: string;
  },
): Promise<void> {
  const reason = row.status === 'Correct' ? null : 'wrong_answer';
  await db
    .insert(evaluations)
    .values({ ...row, reason })
    .onConflictDoUpdate({
      target: [evaluations.submissionId, evaluations.testCaseId],
      set: {
        status: row.status,
        points: row.points,
        overriddenBy: row.overriddenBy,
        comment: row.comment,
        // A Correct verdict by hand clears the grader's reason; a Wrong one keeps it when there was one.
        reason: row.status === 'Correct' ? null : sql`coalesce(${evaluations.reason}, 'wrong_answer')`,
      },
    });
}

/** Score = points of the evaluations; max = points of every current test of the assignment. */
export async function recomputeScore(
  db: Executor,
  submissionId: number,
  assignmentId: number,
): Promise<void> {
  await db
    .update(submissions)
    .set({
      score: sql`(select coalesce(sum(e.points), 0)::int from ${evaluations} as e where e.submission_id = ${submissionId})`,
      maxScore: sql`(select coalesce(sum(t.points), 0)::int from ${testCases} as t where t.assignment_id = ${assignmentId} and not t.draft)`,
    })
    .where(eq(submissions.id, submissionId));
}

export async function findTestCase(
  db: Executor,
  id: number,
): Promise<{ id: number; assignmentId: number; points: number } | null> {
  const rows = await db
    .select({ id: testCases.id, assignmentId: testCases.assignmentId, points: testCases.points })
    .from(testCases)
    .where(eq(testCases.id, id));
  return rows[0] ?? null;
}

/* ─── Re-grading and canceling ───────────────────────────────────────────────────────────────── */

/**
 * Submissions a "re-grade all" queues again: not reference runs, not those still waiting for files
 * (Pending) or for a grader (Scheduled), not those an editor canceled.
 */
export const REGRADABLE_STATUSES = ['Completed', 'InvalidFormat', 'InternalError', 'Executing'] as const;

export async function listRegradableIds(
  db: Executor,
  assignmentId: number,
  courseId: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        eq(submissions.courseId, courseId),
        eq(submissions.isReference, false),
        inArray(submissions.status, [...REGRADABLE_STATUSES]),
      ),
    )
    .orderBy(asc(submissions.createdAt), asc(submissions.id));
  return rows.map((r) => r.id);
}

/** Scheduled or Pending → Canceled, atomically (a grader claiming it at the same moment wins or loses whole). */
export async function cancelSubmission(db: Executor, id: number, message: string): Promise<boolean> {
  const rows = await db
    .update(submissions)
    .set({ status: 'Canceled', message, gradingToken: null })
    .where(and(eq(submissions.id, id), inArray(submissions.status, ['Scheduled', 'Pending'])))
    .returning({ id: submissions.id });
  return rows.length > 0;
}
