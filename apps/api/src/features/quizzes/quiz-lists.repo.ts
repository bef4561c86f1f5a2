import { and, asc, desc, eq, ilike, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { QUIZ_COURSE_ORDERINGS, QUIZ_ORDERINGS, QuizCourseSpecificQuery } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { ownQuizExtension, ownQuizExtensionOn, ownQuizWindow } from '../../db/own-dates.ts';
import { courseEditors, courseStudents, courses } from '../../db/schema.ts';
import { quizCourses, quizSubmissions, quizzes } from '../../db/schema-quizzes.ts';
import { escapeLike } from '../../db/like.ts';
import {
  contextFrom,
  quizCourseColumns,
  toContext,
  type QuizCourseContext,
  type QuizCourseView,
} from './quizzes.repo.ts';
import { inIntArray } from '../../db/int-array.ts';

const ident = sql.identifier;

export interface Viewer {
  userId: number;
  isStaff: boolean;
}

/** The viewer manages the quiz of the outer `quizzes` row: its author, or an editor of one of its courses. */
const managesQuiz = (userId: number) =>
  sql`(${quizzes.createdBy} = ${userId} or exists (select 1 from ${quizCourses} as ${ident('x')} join ${courseEditors} as ${ident('e')} on ${ident('e')}.${ident('course_id')} = ${ident('x')}.${ident('course_id')} where ${ident('x')}.${ident('quiz_id')} = ${quizzes.id} and ${ident('e')}.${ident('user_id')} = ${userId}))`;
/** The viewer studies the course in `courseColumn`. */
const studies = (userId: number, courseColumn: SQL) =>
  sql`exists (select 1 from ${courseStudents} as ${ident('s')} where ${ident('s')}.${ident('course_id')} = ${courseColumn} and ${ident('s')}.${ident('user_id')} = ${userId})`;
const edits = (userId: number, courseColumn: SQL) =>
  sql`exists (select 1 from ${courseEditors} as ${ident('d')} where ${ident('d')}.${ident('course_id')} = ${courseColumn} and ${ident('d')}.${ident('user_id')} = ${userId})`;
const column = (table: string, name: string) => sql`${ident(table)}.${ident(name)}`;

/* ─── `Quiz/` and `quizzes/` ──────────────────────────────────────────────────────────────────── */

export interface QuizListFilter {
  courseIds?: number[];
  search?: string;
  ordering: (typeof QUIZ_ORDERINGS)[number];
  limit: number;
  offset: number;
}

function quizOrder(ordering: QuizListFilter['ordering']): SQL[] {
  const descending = ordering.startsWith('-');
  const dir = descending ? desc : asc;
  const key = descending ? ordering.slice(1) : ordering;
  const col: AnyColumn | null =
    key === 'title' ? quizzes.title : key === 'created_at' ? quizzes.createdAt : null;
  return col ? [dir(col), dir(quizzes.id)] : [dir(quizzes.id)];
}

/**
 * One page of the quizzes the viewer may see (staff: all; managers: theirs; students: those given to a
 * course they study), and how many there are. `courseIds`: given to one of those courses — for a
 * student only their own courses count.
 */
export async function listVisibleQuizIds(
  db: Executor,
  viewer: Viewer,
  filter: QuizListFilter,
): Promise<{ count: number; ids: number[] }> {
  const u = viewer.userId;
  const y = (name: string) => column('y', name);
  const visible = viewer.isStaff
    ? undefined
    : sql`(${managesQuiz(u)} or exists (select 1 from ${quizCourses} as ${ident('y')} where ${y('quiz_id')} = ${quizzes.id} and ${studies(u, y('course_id'))}))`;
  const inCourses =
    filter.courseIds === undefined
      ? undefined
      : sql`exists (select 1 from ${quizCourses} as ${ident('y')} where ${y('quiz_id')} = ${quizzes.id} and ${inIntArray(y('course_id'), filter.courseIds)}${viewer.isStaff ? sql`` : sql` and (${managesQuiz(u)} or ${studies(u, y('course_id'))})`})`;
  const search = filter.search ? ilike(quizzes.title, `%${escapeLike(filter.search)}%`) : undefined;
  const where = and(visible, inCourses, search);
  const rows = await db
    .select({ id: quizzes.id, total: sql<number>`(count(*) over ())::int`.mapWith(Number) })
    .from(quizzes)
    .where(where)
    .orderBy(...quizOrder(filter.ordering))
    .limit(filter.limit)
    .offset(filter.offset);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.offset > 0) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(quizzes)
      .where(where);
    count = counted?.n ?? 0;
  }
  return { count, ids: rows.map((r) => r.id) };
}

/* ─── One course's quizzes (`Quiz/CourseSpecific/`) ───────────────────────────────────────────── */

/** Enough for any real course; `count` still says how many there are. */
export const MAX_COURSE_QUIZZES = 500;

export interface CourseQuizRow extends QuizCourseContext {
  /** Students of the course who submitted. */
  submittedStudents: number;
}

export async function listCourseQuizzes(
  db: Executor,
  courseId: number,
  userId: number,
  filter: Pick<QuizCourseSpecificQuery, 'hide_submitted' | 'search' | 'ordering'>,
): Promise<{ count: number; rows: CourseQuizRow[] }> {
  const descending = filter.ordering.startsWith('-');
  const dir = descending ? desc : asc;
  const key = descending ? filter.ordering.slice(1) : filter.ordering;
  const col =
    key === 'title' ? quizzes.title : key === 'opens_at' ? quizCourses.opensAt : ownQuizWindow.closesAt;
  const rows = await contextFrom(db)
    .where(
      and(
        eq(quizCourses.courseId, courseId),
        filter.hide_submitted ? isNull(quizSubmissions.submittedAt) : undefined,
        filter.search ? ilike(quizzes.title, `%${escapeLike(filter.search)}%`) : undefined,
      ),
    )
    .orderBy(dir(col), dir(quizCourses.id))
    .limit(MAX_COURSE_QUIZZES)
    .execute({ userId });
  const ids = rows.map((r) => r.id);
  const submitted = new Map<number, number>();
  if (ids.length > 0) {
    const counts = await db
      .select({ quizCourseId: quizSubmissions.quizCourseId, n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(quizSubmissions)
      .innerJoin(
        courseStudents,
        and(eq(courseStudents.courseId, courseId), eq(courseStudents.userId, quizSubmissions.userId)),
      )
      .where(
        and(inIntArray(quizSubmissions.quizCourseId, ids), sql`${quizSubmissions.submittedAt} is not null`),
      )
      .groupBy(quizSubmissions.quizCourseId);
    for (const c of counts) submitted.set(c.quizCourseId, c.n);
  }
  return {
    count: rows.length,
    rows: rows.map((row) => ({ ...toContext(row, userId), submittedStudents: submitted.get(row.id) ?? 0 })),
  };
}

/* ─── `quiz-courses/` ──────────────────────────────────────────────────────────────────────────── */

export interface QuizCourseListFilter {
  courseId?: number;
  ordering: (typeof QUIZ_COURSE_ORDERINGS)[number];
  limit: number;
  offset: number;
}

/**
 * The quiz courses the viewer may see: staff all; others those of courses they study or edit, and every
 * course of the quizzes they manage.
 */
export async function listVisibleQuizCourses(
  db: Executor,
  viewer: Viewer,
  filter: QuizCourseListFilter,
): Promise<{ count: number; rows: QuizCourseView[] }> {
  const u = viewer.userId;
  const own = sql`${quizCourses.courseId}`;
  const visible = viewer.isStaff
    ? undefined
    : sql`(${studies(u, own)} or ${edits(u, own)} or ${managesQuiz(u)})`;
  const where = and(
    visible,
    filter.courseId === undefined ? undefined : eq(quizCourses.courseId, filter.courseId),
  );
  const descending = filter.ordering.startsWith('-');
  const dir = descending ? desc : asc;
  const key = descending ? filter.ordering.slice(1) : filter.ordering;
  const col = key === 'opens_at' ? quizCourses.opensAt : key === 'closes_at' ? ownQuizWindow.closesAt : null;
  const order = col ? [dir(col), dir(quizCourses.id)] : [dir(quizCourses.id)];
  const rows = await db
    .select({ ...quizCourseColumns, total: sql<number>`(count(*) over ())::int`.mapWith(Number) })
    .from(quizCourses)
    .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
    .innerJoin(courses, eq(courses.id, quizCourses.courseId))
    .leftJoin(ownQuizExtension, ownQuizExtensionOn(sql.placeholder('userId')))
    .where(where)
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute({ userId: u });
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.offset > 0) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(quizCourses)
      .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
      .where(where);
    count = counted?.n ?? 0;
  }
  return { count, rows: rows.map(({ total: _total, ...row }) => row) };
}
