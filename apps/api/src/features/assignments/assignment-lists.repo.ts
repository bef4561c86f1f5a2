import { and, asc, desc, eq, ilike, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AssignmentOrdering, CourseSpecificQuery, SubmissionStatus } from '@kadai/contracts';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { ownAssignmentDates, ownAssignmentExtension, ownAssignmentExtensionOn } from '../../db/own-dates.ts';
import { courseEditors, courseStudents } from '../../db/schema.ts';
import { assignmentCourses, assignments, submissions } from '../../db/schema-assignments.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { escapeLike } from '../../db/like.ts';
import { inIntArray } from '../../db/int-array.ts';
import { assignmentMax, countedScore, hasCountedScore, reviewJoins } from '../../db/review-score.ts';

const viewerId = sql.placeholder('userId');
const ident = sql.identifier;

/**
 * A course of an assignment the viewer may see, for the row of `assignment_courses` in the outer query:
 * every course of an assignment they edit a course of, and the opened ones of courses they study.
 * (Staff see every course and skip this condition.)
 */
const visibleLink = sql`(${assignmentCourses.assignmentId} in (select ${ident('x')}.${ident('assignment_id')} from ${assignmentCourses} as ${ident('x')} join ${courseEditors} as ${ident('e')} on ${ident('e')}.${ident('course_id')} = ${ident('x')}.${ident('course_id')} where ${ident('e')}.${ident('user_id')} = ${viewerId}) or (${assignmentCourses.opensAt} <= now() and exists (select 1 from ${courseStudents} as ${ident('s')} where ${ident('s')}.${ident('course_id')} = ${assignmentCourses.courseId} and ${ident('s')}.${ident('user_id')} = ${viewerId})))`;

interface ListVariant {
  everyAssignment: boolean;
  courses: boolean;
  createdBy: boolean;
  search: boolean;
  ordering: AssignmentOrdering;
}

export interface AssignmentListFilter {
  courseIds?: number[];
  createdBy?: number;
  search?: string;
  ordering: AssignmentOrdering;
  limit: number;
  offset: number;
}

function listWhere(v: ListVariant): SQL | undefined {
  return and(
    v.everyAssignment ? undefined : visibleLink,
    v.courses ? inIntArray(assignmentCourses.courseId, sql.placeholder('courseIds')) : undefined,
    v.createdBy ? eq(assignments.createdBy, sql.placeholder('createdBy')) : undefined,
    v.search ? ilike(assignments.title, sql.placeholder('pattern')) : undefined,
  );
}

/** Ties end on id, so pages never repeat or skip a row. `due_at`: the earliest due date the viewer sees. */
function listOrder(ordering: AssignmentOrdering): SQL[] {
  const descending = ordering.startsWith('-');
  const dir = descending ? desc : asc;
  const key = descending ? ordering.slice(1) : ordering;
  const column: AnyColumn | SQL | null =
    key === 'title'
      ? assignments.title
      : key === 'created_at'
        ? assignments.createdAt
        : key === 'due_at'
          ? sql`min(${assignmentCourses.dueAt})`
          : null;
  if (column === null) return [dir(assignments.id)];
  return key === 'due_at'
    ? [
        sql`min(${assignmentCourses.dueAt}) ${sql.raw(descending ? 'desc' : 'asc')} nulls last`,
        dir(assignments.id),
      ]
    : [dir(column), dir(assignments.id)];
}

const statementName = (prefix: string) => (v: ListVariant) =>
  `${prefix}_${v.everyAssignment ? 'all' : 'mine'}${v.courses ? '_c' : ''}${v.createdBy ? '_b' : ''}${v.search ? '_q' : ''}_${v.ordering.replace('-', 'd_')}`;

const pageStatement = statementCache(statementName('assignments_page'), (db, v: ListVariant, name) => {
  const base = db
    .select({ id: assignments.id, total: sql<number>`(count(*) over ())::int`.mapWith(Number) })
    .from(assignments);
  // Staff also see assignments whose every course was deleted; nobody else can.
  const joined =
    v.everyAssignment && !v.courses
      ? base.leftJoin(assignmentCourses, eq(assignmentCourses.assignmentId, assignments.id))
      : base.innerJoin(assignmentCourses, eq(assignmentCourses.assignmentId, assignments.id));
  return prepareSelect(
    db,
    joined
      .where(listWhere(v))
      .groupBy(assignments.id)
      .orderBy(...listOrder(v.ordering))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
    name,
  );
});

const countStatement = statementCache(statementName('assignments_count'), (db, v: ListVariant, name) => {
  const base = db
    .select({ n: sql<number>`count(distinct ${assignments.id})::int`.mapWith(Number) })
    .from(assignments);
  const joined =
    v.everyAssignment && !v.courses
      ? base.leftJoin(assignmentCourses, eq(assignmentCourses.assignmentId, assignments.id))
      : base.innerJoin(assignmentCourses, eq(assignmentCourses.assignmentId, assignments.id));
  return prepareSelect(db, joined.where(listWhere(v)), name);
});

/** The ids of one page of the assignments the viewer may see, and how many there are in all. */
export async function listVisibleAssignmentIds(
  db: Executor,
  viewer: { userId: number; isStaff: boolean },
  filter: AssignmentListFilter,
): Promise<{ count: number; ids: number[] }> {
  const variant: ListVariant = {
    everyAssignment: viewer.isStaff,
    courses: filter.courseIds !== undefined,
    createdBy: filter.createdBy !== undefined,
    search: Boolean(filter.search),
    ordering: filter.ordering,
  };
  const values = {
    userId: viewer.userId,
    courseIds: filter.courseIds ?? [],
    createdBy: filter.createdBy ?? 0,
    pattern: `%${escapeLike(filter.search ?? '')}%`,
    limit: filter.limit,
    offset: filter.offset,
  };
  const rows = await pageStatement(db, variant).execute(values);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.offset > 0) {
    const [counted] = await countStatement(db, variant).execute(values);
    count = counted?.n ?? 0;
  }
  return { count, ids: rows.map((r) => r.id) };
}

/* ─── One course's assignments (`CourseSpecific`) ─────────────────────────────────────────────── */

export interface CourseAssignmentRow {
  id: number;
  title: string;
  courseId: number;
  opensAt: Date;
  dueAt: Date;
  lateUntil: Date | null;
  leaderboardEnabled: boolean;
  /** The dates are the viewer's own (docs/extensions.md). */
  extended: boolean;
}

interface CourseVariant {
  openedOnly: boolean;
  search: boolean;
  ordering: CourseSpecificQuery['ordering'];
}

/** Enough for any real course; `count` still says how many there are. */
export const MAX_COURSE_ASSIGNMENTS = 500;

const courseListStatement = statementCache(
  (v: CourseVariant) =>
    `course_assignments_${v.openedOnly ? 'open' : 'all'}${v.search ? '_q' : ''}_${v.ordering.replace('-', 'd_')}`,
  (db, v: CourseVariant, name) => {
    const descending = v.ordering.startsWith('-');
    const dir = descending ? desc : asc;
    const key = descending ? v.ordering.slice(1) : v.ordering;
    const column =
      key === 'title'
        ? assignments.title
        : key === 'opens_at'
          ? assignmentCourses.opensAt
          : assignmentCourses.dueAt;
    return prepareSelect(
      db,
      db
        .select({
          id: assignments.id,
          title: assignments.title,
          courseId: assignmentCourses.courseId,
          opensAt: assignmentCourses.opensAt,
          ...ownAssignmentDates,
          leaderboardEnabled: assignmentCourses.leaderboardEnabled,
          total: sql<number>`(count(*) over ())::int`.mapWith(Number),
        })
        .from(assignmentCourses)
        .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
        .leftJoin(ownAssignmentExtension, ownAssignmentExtensionOn(sql.placeholder('userId')))
        .where(
          and(
            eq(assignmentCourses.courseId, sql.placeholder('courseId')),
            v.openedOnly ? sql`${assignmentCourses.opensAt} <= now()` : undefined,
            v.search ? ilike(assignments.title, sql.placeholder('pattern')) : undefined,
          ),
        )
        .orderBy(dir(column), dir(assignments.id))
        .limit(MAX_COURSE_ASSIGNMENTS),
      name,
    );
  },
);

/** The course's assignments with `viewerId`'s own dates (an extension's, else the course's). */
export async function listCourseAssignments(
  db: Executor,
  courseId: number,
  viewerId: number,
  filter: { openedOnly: boolean; search?: string; ordering: CourseSpecificQuery['ordering'] },
): Promise<{ count: number; rows: CourseAssignmentRow[] }> {
  const rows = await courseListStatement(db, {
    openedOnly: filter.openedOnly,
    search: Boolean(filter.search),
    ordering: filter.ordering,
  }).execute({ courseId, userId: viewerId, pattern: `%${escapeLike(filter.search ?? '')}%` });
  return { count: rows[0]?.total ?? 0, rows: rows.map(({ total: _total, ...row }) => row) };
}

export interface MySubmissionStats {
  count: number;
  latestStatus: SubmissionStatus | null;
  latestScore: number | null;
  latestMaxScore: number | null;
  bestScore: number | null;
  finalSubmissionId: number | null;
}

/** The user's own submissions (not reference runs) in one course, per assignment, in one query. */
export async function mySubmissionStats(
  db: Executor,
  courseId: number,
  userId: number,
  assignmentIds: number[],
): Promise<Map<number, MySubmissionStats>> {
  if (assignmentIds.length === 0) return new Map();
  const rows = await db
    .select({
      assignmentId: submissions.assignmentId,
      count: sql<number>`count(*)::int`.mapWith(Number),
      latestStatus: sql<SubmissionStatus>`(array_agg(${submissions.status} order by ${submissions.createdAt} desc, ${submissions.id} desc))[1]`,
      latestScore: sql<
        number | null
      >`(array_agg(${submissions.score} order by ${submissions.createdAt} desc, ${submissions.id} desc))[1]`,
      latestMaxScore: sql<
        number | null
      >`(array_agg(${submissions.maxScore} order by ${submissions.createdAt} desc, ${submissions.id} desc))[1]`,
      bestScore: sql<
        number | null
      >`max(${submissions.score}) filter (where ${submissions.status} = 'Completed')`,
      finalSubmissionId: sql<number | null>`max(${submissions.id}) filter (where ${submissions.isFinal})`,
    })
    .from(submissions)
    .where(
      and(
        eq(submissions.courseId, courseId),
        eq(submissions.userId, userId),
        eq(submissions.isReference, false),
        inArray(submissions.assignmentId, assignmentIds),
      ),
    )
    .groupBy(submissions.assignmentId);
  return new Map(
    rows.map((r) => [
      r.assignmentId,
      {
        count: r.count,
        latestStatus: r.latestStatus,
        latestScore: r.latestScore === null ? null : Number(r.latestScore),
        latestMaxScore: r.latestMaxScore === null ? null : Number(r.latestMaxScore),
        bestScore: r.bestScore === null ? null : Number(r.bestScore),
        finalSubmissionId: r.finalSubmissionId === null ? null : Number(r.finalSubmissionId),
      },
    ]),
  );
}

/** How many students of the course submitted at least once, per assignment. */
export async function submittedStudentCounts(
  db: Executor,
  courseId: number,
  assignmentIds: number[],
): Promise<Map<number, number>> {
  if (assignmentIds.length === 0) return new Map();
  const rows = await db
    .select({
      assignmentId: submissions.assignmentId,
      n: sql<number>`count(distinct ${submissions.userId})::int`.mapWith(Number),
    })
    .from(submissions)
    .innerJoin(
      courseStudents,
      and(eq(courseStudents.courseId, submissions.courseId), eq(courseStudents.userId, submissions.userId)),
    )
    .where(
      and(
        eq(submissions.courseId, courseId),
        eq(submissions.isReference, false),
        inArray(submissions.assignmentId, assignmentIds),
      ),
    )
    .groupBy(submissions.assignmentId);
  return new Map(rows.map((r) => [r.assignmentId, r.n]));
}

const ScoringRows = z.object({
  rows: z.array(z.object({ id: z.coerce.number(), score: z.coerce.number().nullable() })),
});

/**
 * The user's final submission, else their best graded one (earliest among equals), with its released
 * review's total (db/review-score.ts); null if neither.
 */
export async function findScoringSubmission(
  db: Executor,
  assignmentId: number,
  courseId: number,
  userId: number,
): Promise<{ id: number; score: number | null } | null> {
  const result = await db.execute(sql`
    select s.id, ${countedScore} as score
    from submissions s ${reviewJoins(true)}
    where s.assignment_id = ${assignmentId} and s.course_id = ${courseId} and s.user_id = ${userId}
      and not s.is_reference and (s.is_final or ${hasCountedScore})
    order by s.is_final desc, ${countedScore} desc nulls last, s.created_at, s.id
    limit 1`);
  return ScoringRows.parse(result).rows[0] ?? null;
}

const MaxRows = z.object({ rows: z.tuple([z.object({ max: z.coerce.number() })]) });
const testCasePoints = sql`coalesce((select sum(tc.points) from test_cases tc where tc.assignment_id = a.id and not tc.draft), 0)`;

/** What the assignment's scores are out of: its test cases' points, weighed with its rubric's (docs/review.md). */
export async function findAssignmentMax(db: Executor, assignmentId: number): Promise<number> {
  const result = await db.execute(sql`
    select round(${assignmentMax(testCasePoints)}::numeric, 2)::float8 as max
    from assignments a where a.id = ${assignmentId}`);
  return MaxRows.parse(result).rows[0].max;
}
