import { and, asc, desc, eq, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SUBMISSION_ORDERINGS, SubmissionStatus } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { ownAssignmentExtension } from '../../db/own-dates.ts';
import { courseEditors, users } from '../../db/schema.ts';
import { assignmentCourses, assignments, submissions } from '../../db/schema-assignments.ts';
import { escapeLike } from '../../db/like.ts';
import { submissionColumns, submissionJoins, type SubmissionView } from './submissions.repo.ts';

export type SubmissionOrdering = (typeof SUBMISSION_ORDERINGS)[number];

/** A position in the `-created_at` order: the exact creation time (µs since the epoch) and the id. */
export interface Keyset {
  micros: bigint;
  id: number;
}

export interface SubmissionListFilter {
  viewer: { userId: number; isStaff: boolean };
  courseId?: number;
  /** The author. */
  userId?: number;
  assignmentId?: number;
  status?: SubmissionStatus;
  isFinal?: boolean;
  isLate?: boolean;
  /** Reference runs instead of submissions (only those the viewer manages are ever visible). */
  isReference: boolean;
  search?: string;
  ordering: SubmissionOrdering;
  limit: number;
  offset: number;
  /** Rows after this position (ordering `-created_at` only); `offset` is then not used. */
  after?: Keyset;
}

const ORDER_COLUMNS: Record<string, AnyColumn> = {
  id: submissions.id,
  created_at: submissions.createdAt,
  score: submissions.score,
  status: submissions.status,
};

/** Every ordering ends on id, so pages never repeat or skip rows with equal values. */
function orderBy(ordering: SubmissionOrdering): SQL[] {
  const descending = ordering.startsWith('-');
  const key = descending ? ordering.slice(1) : ordering;
  const column = ORDER_COLUMNS[key] ?? submissions.id;
  if (column === submissions.id) return [descending ? desc(submissions.id) : asc(submissions.id)];
  // A missing score sorts last either way: "best first" never starts with ungraded work.
  const nulls = key === 'score' ? sql.raw(' nulls last') : sql.raw('');
  return [
    sql`${column} ${sql.raw(descending ? 'desc' : 'asc')}${nulls}`,
    descending ? desc(submissions.id) : asc(submissions.id),
  ];
}

/**
 * What the viewer may see: staff everything; others their own submissions (not reference runs) and
 * every submission of the courses they edit.
 */
function visibleTo(viewer: SubmissionListFilter['viewer']): SQL | undefined {
  if (viewer.isStaff) return undefined;
  const edits = sql`${submissions.courseId} in (select ${courseEditors.courseId} from ${courseEditors} where ${courseEditors.userId} = ${viewer.userId})`;
  return or(and(eq(submissions.userId, viewer.userId), eq(submissions.isReference, false)), edits);
}

function whereOf(filter: SubmissionListFilter): SQL | undefined {
  const pattern = filter.search ? `%${escapeLike(filter.search)}%` : undefined;
  return and(
    visibleTo(filter.viewer),
    eq(submissions.isReference, filter.isReference),
    filter.courseId === undefined ? undefined : eq(submissions.courseId, filter.courseId),
    filter.userId === undefined ? undefined : eq(submissions.userId, filter.userId),
    filter.assignmentId === undefined ? undefined : eq(submissions.assignmentId, filter.assignmentId),
    filter.status === undefined ? undefined : eq(submissions.status, filter.status),
    filter.isFinal === undefined ? undefined : eq(submissions.isFinal, filter.isFinal),
    filter.isLate === undefined ? undefined : eq(submissions.isLate, filter.isLate),
    pattern
      ? or(
          ilike(assignments.title, pattern),
          ilike(users.email, pattern),
          ilike(users.firstName, pattern),
          ilike(users.lastName, pattern),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ilike(sql`${users.lastName} || ' ' || ${users.firstName}`, pattern),
        )
      : undefined,
  );
}

/**
 * One page of submissions and the number of all that match. With `after` the page is found by keyset
 * (`(created_at, id) < (…)`, an index range): page 400 costs what page 1 does.
 */
export async function listSubmissions(
  db: Executor,
  filter: SubmissionListFilter,
): Promise<{ count: number; rows: SubmissionView[] }> {
  const where = whereOf(filter);
  const keyset = filter.after
    ? sql`(${submissions.createdAt}, ${submissions.id}) < (timestamptz 'epoch' + ${filter.after.micros.toString()}::bigint * interval '1 microsecond', ${filter.after.id})`
    : undefined;
  const rows = await db
    .select(submissionColumns)
    .from(submissions)
    .innerJoin(assignments, submissionJoins.assignment)
    .innerJoin(assignmentCourses, submissionJoins.link)
    .leftJoin(ownAssignmentExtension, submissionJoins.ownExtension)
    .innerJoin(users, submissionJoins.user)
    .where(and(where, keyset))
    .orderBy(...orderBy(filter.ordering))
    .limit(filter.limit)
    .offset(filter.after ? 0 : filter.offset);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(submissions)
    .innerJoin(assignments, submissionJoins.assignment)
    .innerJoin(assignmentCourses, submissionJoins.link)
    .leftJoin(ownAssignmentExtension, submissionJoins.ownExtension)
    .innerJoin(users, submissionJoins.user)
    .where(where);
  return { count: total?.n ?? 0, rows };
}
