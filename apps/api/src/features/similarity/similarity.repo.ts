import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseStudents, users } from '../../db/schema.ts';
import {
  assignmentCourses,
  assignmentFiles,
  assignments,
  submissionFiles,
  submissions,
  testCases,
} from '../../db/schema-assignments.ts';
import { similarityReports } from '../../db/schema-similarity.ts';

/* Similarity reports (docs/similarity.md): what they compare, and the reports themselves. */

export async function findAssignmentInCourse(db: Executor, assignmentId: number, courseId: number) {
  const [row] = await db
    .select({ id: assignments.id, title: assignments.title, starterCode: assignments.starterCode })
    .from(assignmentCourses)
    .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
    .where(and(eq(assignmentCourses.assignmentId, assignmentId), eq(assignmentCourses.courseId, courseId)))
    .limit(1);
  return row ?? null;
}

/** The teacher's files (their storage keys) and the code of the assignment's tests. */
export async function listTeacherCode(db: Executor, assignmentId: number) {
  const [files, tests] = await Promise.all([
    db
      .select({ filename: assignmentFiles.filename, storageKey: assignmentFiles.storageKey })
      .from(assignmentFiles)
      .where(eq(assignmentFiles.assignmentId, assignmentId))
      .orderBy(asc(assignmentFiles.filename)),
    db
      .select({ driver: testCases.driver, checkScript: testCases.checkScript, testCode: testCases.testCode })
      .from(testCases)
      .where(eq(testCases.assignmentId, assignmentId))
      .orderBy(asc(testCases.position), asc(testCases.id)),
  ]);
  return {
    files,
    tests: tests.flatMap((t) => [t.driver, t.checkScript, t.testCode].filter((c) => c !== '')),
  };
}

/**
 * Each current student's counted submission of the assignment in these courses: the final one, else the
 * best graded one (the gradebook's rule, assessment/gradebook.repo.ts), else their latest. At most
 * `limit` (the caller refuses more). Reference runs are never students' work.
 */
export async function listCountedSubmissions(
  db: Executor,
  assignmentId: number,
  courseIds: number[],
  limit: number,
) {
  const graded = sql`(${submissions.status} = 'Completed' and ${submissions.score} is not null)`;
  return db
    .selectDistinctOn([submissions.courseId, submissions.userId], {
      submissionId: submissions.id,
      userId: submissions.userId,
      courseId: submissions.courseId,
    })
    .from(submissions)
    .innerJoin(
      courseStudents,
      and(eq(courseStudents.courseId, submissions.courseId), eq(courseStudents.userId, submissions.userId)),
    )
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        inArray(submissions.courseId, courseIds),
        eq(submissions.isReference, false),
      ),
    )
    .orderBy(
      asc(submissions.courseId),
      asc(submissions.userId),
      desc(submissions.isFinal),
      desc(graded),
      sql`${submissions.score} desc nulls last`,
      desc(submissions.id),
    )
    .limit(limit);
}

/** The files of these submissions, as stored. */
export async function listSubmissionFiles(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return [];
  return db
    .select({
      submissionId: submissionFiles.submissionId,
      filename: submissionFiles.filename,
      content: submissionFiles.content,
    })
    .from(submissionFiles)
    .where(inArray(submissionFiles.submissionId, submissionIds));
}

export async function listUsers(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email, first_name: users.firstName, last_name: users.lastName })
    .from(users)
    .where(inArray(users.id, userIds));
}

const reportColumns = {
  id: similarityReports.id,
  assignmentId: similarityReports.assignmentId,
  courseId: similarityReports.courseId,
  includeCourseId: similarityReports.includeCourseId,
  status: similarityReports.status,
  error: similarityReports.error,
  submissionCount: similarityReports.submissionCount,
  pairCount: similarityReports.pairCount,
  createdAt: similarityReports.createdAt,
  finishedAt: similarityReports.finishedAt,
};

export async function insertReport(
  db: Executor,
  values: {
    assignmentId: number;
    courseId: number;
    includeCourseId: number | null;
    requestedBy: number;
    input: unknown;
  },
) {
  const [row] = await db.insert(similarityReports).values(values).returning(reportColumns);
  if (!row) throw new Error('similarity report not inserted');
  return row;
}

export type ReportRow = Awaited<ReturnType<typeof insertReport>>;

export async function listReports(db: Executor, courseId: number, assignmentId: number, limit: number) {
  return db
    .select(reportColumns)
    .from(similarityReports)
    .where(and(eq(similarityReports.courseId, courseId), eq(similarityReports.assignmentId, assignmentId)))
    .orderBy(desc(similarityReports.createdAt), desc(similarityReports.id))
    .limit(limit);
}

export async function findReport(db: Executor, reportId: number) {
  const [row] = await db
    .select({ ...reportColumns, result: similarityReports.result })
    .from(similarityReports)
    .where(eq(similarityReports.id, reportId))
    .limit(1);
  return row ?? null;
}
