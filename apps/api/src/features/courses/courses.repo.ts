import { and, asc, desc, eq, ilike, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { CourseOrdering } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { courseEditors, courseStudents, courses } from '../../db/schema.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';

/** A course as its screens show it (the notification switch is read by the notifications feature). */
export type CourseRow = Omit<typeof courses.$inferSelect, 'notifyEditorsOfMembers'>;
/** The member counts are the trigger's to keep (migration 0016), never written by the API. */
export type NewCourseRow = Omit<typeof courses.$inferInsert, 'studentCount' | 'editorCount'>;

/** A course with its member counts and how the caller stands to it (both flags false for staff outsiders). */
export interface CourseView extends CourseRow {
  editorCount: number;
  studentCount: number;
  isEditor: boolean;
  isStudent: boolean;
}

export interface CourseListFilter {
  limit: number;
  offset: number;
  ordering: CourseOrdering;
  search?: string;
}

interface OrderColumns {
  id: AnyColumn;
  title: AnyColumn;
  createdAt: AnyColumn;
  updatedAt: AnyColumn;
}

/** Every ordering ends on id, so pages never repeat or skip a row among equal titles or dates. */
function orderBy(ordering: CourseOrdering, c: OrderColumns): SQL[] {
  const descending = ordering.startsWith('-');
  const key = descending ? ordering.slice(1) : ordering;
  const dir = descending ? desc : asc;
  const column =
    key === 'title'
      ? c.title
      : key === 'created_at'
        ? c.createdAt
        : key === 'updated_at'
          ? c.updatedAt
          : c.id;
  return column === c.id ? [dir(c.id)] : [dir(column), dir(c.id)];
}

type MembershipTable = typeof courseEditors | typeof courseStudents;
type Outer = 'courses' | 'page';

/*
 * Drizzle leaves columns unqualified in the select list of a one-table query, which inside a correlated
 * subquery would let a same-named column of the inner table win. These subqueries name both sides.
 */
const memberAlias = sql.identifier('m');
const outerId = (outer: Outer) => sql`${sql.identifier(outer)}.${sql.identifier(courses.id.name)}`;
const memberColumn = (column: AnyColumn) => sql`${memberAlias}.${sql.identifier(column.name)}`;

const viewerId = sql.placeholder('userId');
const isMemberOf = (table: MembershipTable, outer: Outer) =>
  sql<boolean>`exists (select 1 from ${table} as ${memberAlias} where ${memberColumn(table.courseId)} = ${outerId(outer)} and ${memberColumn(table.userId)} = ${viewerId})`.mapWith(
    Boolean,
  );

interface ListVariant {
  /** Staff: every course. Others: the courses they edit or study. */
  everyCourse: boolean;
  search: boolean;
  ordering: CourseOrdering;
}

function listWhere(variant: ListVariant): SQL | undefined {
  const pattern = sql.placeholder('pattern');
  return and(
    variant.everyCourse
      ? undefined
      : // The viewer's memberships come from the user_id indexes; their courses are then found by key.
        sql`${courses.id} in (select ${courseEditors.courseId} from ${courseEditors} where ${courseEditors.userId} = ${viewerId} union select ${courseStudents.courseId} from ${courseStudents} where ${courseStudents.userId} = ${viewerId})`,
    variant.search ? or(ilike(courses.title, pattern), ilike(courses.description, pattern)) : undefined,
  );
}

/** A PostgreSQL statement name (at most 63 characters) per variant. */
const statementName = (prefix: string) => (v: ListVariant) =>
  `${prefix}_${v.everyCourse ? 'all' : 'mine'}_${v.search ? 'q' : 'n'}_${v.ordering.replace('-', 'desc_')}`;

/**
 * The course's own columns, as both the list and the one-course view answer them, with its member
 * counts (kept on the row by a trigger: counting them here was 55 % of the list's statement).
 */
const courseColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  hasVideos: courses.hasVideos,
  hasAssessment: courses.hasAssessment,
  timeZone: courses.timeZone,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
  editorCount: courses.editorCount,
  studentCount: courses.studentCount,
};

/**
 * One page with the total, member counts and the viewer's relation, in one statement: the inner query
 * picks the page (and counts every match with a window), the outer one asks the viewer's relation only
 * for the rows of that page.
 */
const listStatement = statementCache(statementName('courses_list'), (db, variant: ListVariant, name) => {
  const page = db
    .select({
      ...courseColumns,
      total: sql<number>`(count(*) over ())::int`.as('total'),
    })
    .from(courses)
    .where(listWhere(variant))
    .orderBy(...orderBy(variant.ordering, courses))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
  return prepareSelect(
    db,
    db
      .select({
        id: page.id,
        title: page.title,
        description: page.description,
        hasVideos: page.hasVideos,
        hasAssessment: page.hasAssessment,
        timeZone: page.timeZone,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
        total: page.total,
        editorCount: page.editorCount,
        studentCount: page.studentCount,
        isEditor: variant.everyCourse
          ? sql<boolean>`false`.mapWith(Boolean)
          : isMemberOf(courseEditors, 'page'),
      })
      .from(page)
      .orderBy(...orderBy(variant.ordering, page)),
    name,
  );
});

const countStatement = statementCache(statementName('courses_count'), (db, variant: ListVariant, name) => {
  return prepareSelect(
    db,
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(courses)
      .where(listWhere(variant)),
    name,
  );
});

export async function listCoursesForViewer(
  db: Executor,
  viewer: { userId: number; isStaff: boolean },
  filter: CourseListFilter,
): Promise<{ count: number; rows: CourseView[] }> {
  const variant: ListVariant = {
    everyCourse: viewer.isStaff,
    search: Boolean(filter.search),
    ordering: filter.ordering,
  };
  const values = {
    userId: viewer.userId,
    pattern: `%${escapeLike(filter.search ?? '')}%`,
    limit: filter.limit,
    offset: filter.offset,
  };
  const rows = await listStatement(db, variant).execute(values);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.offset > 0) {
    // Past the last page the window has no row to report on; only then count separately.
    const [counted] = await countStatement(db, variant).execute(values);
    count = counted?.n ?? 0;
  }
  return {
    count,
    // Built field by field: an object rest and a spread per row, here (to drop `total`) and in the
    // service, cost the API about 0.1 ms of its 0.33 for a page of 20 (docs/performance.md, bench:api).
    rows: rows.map((row): CourseView => ({
      id: row.id,
      title: row.title,
      description: row.description,
      hasVideos: row.hasVideos,
      hasAssessment: row.hasAssessment,
      timeZone: row.timeZone,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      editorCount: row.editorCount,
      studentCount: row.studentCount,
      isEditor: row.isEditor,
      // A course a non-staff viewer sees and does not edit is one they study.
      isStudent: !viewer.isStaff && !row.isEditor,
    })),
  };
}

/** How the viewer (placeholder userId) stands to the course row. */
const relationColumns = () => ({
  isEditor: isMemberOf(courseEditors, 'courses'),
  isStudent: isMemberOf(courseStudents, 'courses'),
});

const courseViewStatement = statementCache(
  () => 'course_view',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({
          ...courseColumns,
          ...relationColumns(),
        })
        .from(courses)
        .where(eq(courses.id, sql.placeholder('courseId')))
        .limit(1),
      name,
    ),
);

/** One course with its counts and the viewer's relation, or null when no such course exists. */
export async function findCourseView(
  db: Executor,
  courseId: number,
  userId: number,
): Promise<CourseView | null> {
  const rows = await courseViewStatement(db, null).execute({ courseId, userId });
  return rows[0] ?? null;
}

const relationStatement = statementCache(
  () => 'course_relation',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select(relationColumns())
        .from(courses)
        .where(eq(courses.id, sql.placeholder('courseId')))
        .limit(1),
      name,
    ),
);

/** Whether the course exists and how the user stands to it, without the counts. */
export async function findCourseRelation(
  db: Executor,
  courseId: number,
  userId: number,
): Promise<{ isEditor: boolean; isStudent: boolean } | null> {
  const rows = await relationStatement(db, null).execute({ courseId, userId });
  return rows[0] ?? null;
}

export async function insertCourse(db: Executor, row: NewCourseRow): Promise<CourseRow> {
  const [inserted] = await db.insert(courses).values(row).returning();
  return inserted!;
}

/** Applies the given fields and bumps updated_at; null when the course is gone. */
export async function updateCourse(
  db: Executor,
  courseId: number,
  fields: Partial<Pick<NewCourseRow, 'title' | 'description' | 'hasVideos' | 'hasAssessment' | 'timeZone'>>,
): Promise<CourseRow | null> {
  const [updated] = await db
    .update(courses)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(courses.id, courseId))
    .returning();
  return updated ?? null;
}

/** Deletes the course; its memberships go with it (ON DELETE CASCADE). */
export async function deleteCourse(db: Executor, courseId: number): Promise<boolean> {
  const deleted = await db.delete(courses).where(eq(courses.id, courseId)).returning({ id: courses.id });
  return deleted.length > 0;
}

export async function findCourseByTitle(db: Executor, title: string): Promise<CourseRow | null> {
  const rows = await db
    .select()
    .from(courses)
    .where(eq(courses.title, title))
    .orderBy(asc(courses.id))
    .limit(1);
  return rows[0] ?? null;
}

/** Which of `courseIds` the user edits (staff rights are the service's business). */
export async function listEditedCourseIds(
  db: Executor,
  userId: number,
  courseIds: number[],
): Promise<number[]> {
  if (courseIds.length === 0) return [];
  const rows = await db
    .select({ courseId: courseEditors.courseId })
    .from(courseEditors)
    .where(and(eq(courseEditors.userId, userId), inArray(courseEditors.courseId, courseIds)));
  return rows.map((r) => r.courseId);
}

/** Which of `courseIds` exist. */
export async function listExistingCourseIds(db: Executor, courseIds: number[]): Promise<number[]> {
  if (courseIds.length === 0) return [];
  const rows = await db.select({ id: courses.id }).from(courses).where(inArray(courses.id, courseIds));
  return rows.map((r) => r.id);
}
