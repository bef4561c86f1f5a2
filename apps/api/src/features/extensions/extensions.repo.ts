import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ExtensionDates, ExtensionKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';
import { courseStudents, users } from '../../db/schema.ts';
import { assignmentCourses, assignments } from '../../db/schema-assignments.ts';
import { quizCourses, quizzes } from '../../db/schema-quizzes.ts';
import { assignmentExtensions, extensionAudit, quizExtensions } from '../../db/schema-extensions.ts';

/* ─── The item an extension is for ──────────────────────────────────────────────────────────── */

/** An assignment or a quiz as given in one course, with that course's dates. */
export interface ItemInCourse {
  kind: ExtensionKind;
  /** The assignment's or the quiz's id. */
  itemId: number;
  /** Quizzes: the quiz-course the extension rows hang on. */
  quizCourseId: number | null;
  title: string;
  opensAt: Date;
  /** The due date (assignments) or the closing time (quizzes). */
  dueAt: Date;
  lateUntil: Date | null;
  timeLimitMinutes: number | null;
}

export async function findItem(
  db: Executor,
  courseId: number,
  kind: ExtensionKind,
  itemId: number,
): Promise<ItemInCourse | null> {
  if (kind === 'assignment') {
    const [row] = await db
      .select({
        title: assignments.title,
        opensAt: assignmentCourses.opensAt,
        dueAt: assignmentCourses.dueAt,
        lateUntil: assignmentCourses.lateUntil,
      })
      .from(assignmentCourses)
      .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
      .where(and(eq(assignmentCourses.assignmentId, itemId), eq(assignmentCourses.courseId, courseId)))
      .limit(1);
    return row ? { kind, itemId, quizCourseId: null, timeLimitMinutes: null, ...row } : null;
  }
  const [row] = await db
    .select({
      quizCourseId: quizCourses.id,
      title: quizzes.title,
      opensAt: quizCourses.opensAt,
      dueAt: quizCourses.closesAt,
      timeLimitMinutes: quizCourses.timeLimitMinutes,
    })
    .from(quizCourses)
    .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
    .where(and(eq(quizCourses.quizId, itemId), eq(quizCourses.courseId, courseId)))
    .limit(1);
  return row ? { kind, itemId, lateUntil: null, ...row } : null;
}

export interface Person {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

/** Of these users, those who are students of the course. */
export function listStudents(db: Executor, courseId: number, userIds: number[]): Promise<Person[]> {
  return db
    .select({ id: users.id, email: users.email, first_name: users.firstName, last_name: users.lastName })
    .from(courseStudents)
    .innerJoin(users, eq(users.id, courseStudents.userId))
    .where(and(eq(courseStudents.courseId, courseId), inArray(courseStudents.userId, userIds)));
}

/* ─── Extensions ────────────────────────────────────────────────────────────────────────────── */

export interface ExtensionRow extends ExtensionDates {
  kind: ExtensionKind;
  itemId: number;
  itemTitle: string;
  user: Person;
  courseDueAt: Date;
  courseLateUntil: Date | null;
  timeLimitMinutes: number | null;
  reason: string;
  grantedBy: Person | null;
  grantedAt: Date;
}

const iso = z.coerce.date().transform((d) => d.toISOString());
const Row = z.object({
  kind: z.enum(['assignment', 'quiz']),
  item_id: z.coerce.number(),
  item_title: z.string(),
  user_id: z.coerce.number(),
  user_email: z.string(),
  user_first_name: z.string(),
  user_last_name: z.string(),
  due_at: iso.nullable(),
  late_until: iso.nullable(),
  closes_at: iso.nullable(),
  extra_minutes: z.coerce.number().nullable(),
  course_due_at: z.coerce.date(),
  course_late_until: z.coerce.date().nullable(),
  time_limit_minutes: z.coerce.number().nullable(),
  reason: z.string(),
  granted_by_id: z.coerce.number().nullable(),
  granted_by_email: z.string().nullable(),
  granted_by_first_name: z.string().nullable(),
  granted_by_last_name: z.string().nullable(),
  granted_at: z.coerce.date(),
  total: z.coerce.number(),
});

export interface ExtensionFilter {
  kind?: ExtensionKind;
  itemId?: number;
  userIds?: number[];
}

/**
 * The course's extensions, assignments' and quizzes' in one list, by item then student name; at most
 * `limit`, with the full count.
 */
export async function listExtensions(
  db: Executor,
  courseId: number,
  filter: ExtensionFilter,
  limit: number,
): Promise<{ count: number; rows: ExtensionRow[] }> {
  const ofUsers = filter.userIds ? sql`and ${inIntArray(sql`x.user_id`, filter.userIds)}` : sql``;
  const item = filter.itemId === undefined ? sql`` : sql`and e.item_id = ${filter.itemId}`;
  const wants = (kind: ExtensionKind) =>
    sql.raw(filter.kind === undefined || filter.kind === kind ? 'true' : 'false');
  const result = await db.execute(sql`
    select e.*, u.email as user_email, u.first_name as user_first_name, u.last_name as user_last_name,
           g.id as granted_by_id, g.email as granted_by_email, g.first_name as granted_by_first_name,
           g.last_name as granted_by_last_name, count(*) over () as total
    from (
      select 'assignment' as kind, x.assignment_id as item_id, a.title as item_title, x.user_id,
             x.due_at, x.late_until, null::timestamptz as closes_at, null::int as extra_minutes,
             ac.due_at as course_due_at, ac.late_until as course_late_until, null::int as time_limit_minutes,
             x.reason, x.granted_by, x.granted_at
      from assignment_extensions x
      join assignment_courses ac on ac.assignment_id = x.assignment_id and ac.course_id = x.course_id
      join assignments a on a.id = x.assignment_id
      where x.course_id = ${courseId} and ${wants('assignment')} ${ofUsers}
      union all
      select 'quiz', qc.quiz_id, q.title, x.user_id,
             null, null, x.closes_at, x.extra_minutes,
             qc.closes_at, null, qc.time_limit_minutes,
             x.reason, x.granted_by, x.granted_at
      from quiz_extensions x
      join quiz_courses qc on qc.id = x.quiz_course_id
      join quizzes q on q.id = qc.quiz_id
      where qc.course_id = ${courseId} and ${wants('quiz')} ${ofUsers}
    ) e
    join users u on u.id = e.user_id
    left join users g on g.id = e.granted_by
    where true ${item}
    order by e.course_due_at, e.kind, e.item_id, u.last_name, u.first_name, u.email, u.id
    limit ${limit}`);
  const rows = z.object({ rows: z.array(Row) }).parse(result).rows;
  return {
    count: rows[0]?.total ?? 0,
    rows: rows.map((r) => ({
      kind: r.kind,
      itemId: r.item_id,
      itemTitle: r.item_title,
      user: {
        id: r.user_id,
        email: r.user_email,
        first_name: r.user_first_name,
        last_name: r.user_last_name,
      },
      due_at: r.due_at,
      late_until: r.late_until,
      closes_at: r.closes_at,
      extra_minutes: r.extra_minutes,
      courseDueAt: r.course_due_at,
      courseLateUntil: r.course_late_until,
      timeLimitMinutes: r.time_limit_minutes,
      reason: r.reason,
      grantedBy:
        r.granted_by_id === null
          ? null
          : {
              id: r.granted_by_id,
              email: r.granted_by_email ?? '',
              first_name: r.granted_by_first_name ?? '',
              last_name: r.granted_by_last_name ?? '',
            },
      grantedAt: r.granted_at,
    })),
  };
}

const datesOfAssignment = (r: { dueAt: Date; lateUntil: Date | null }): ExtensionDates => ({
  due_at: r.dueAt.toISOString(),
  late_until: r.lateUntil?.toISOString() ?? null,
  closes_at: null,
  extra_minutes: null,
});
const datesOfQuiz = (r: { closesAt: Date | null; extraMinutes: number | null }): ExtensionDates => ({
  due_at: null,
  late_until: null,
  closes_at: r.closesAt?.toISOString() ?? null,
  extra_minutes: r.extraMinutes,
});

/** The students' current extensions for the item, locked until the transaction ends: user id → dates. */
export async function lockCurrent(
  tx: Executor,
  courseId: number,
  item: ItemInCourse,
  userIds: number[],
): Promise<Map<number, ExtensionDates & { reason: string }>> {
  const current = new Map<number, ExtensionDates & { reason: string }>();
  if (item.kind === 'assignment') {
    const rows = await tx
      .select()
      .from(assignmentExtensions)
      .where(
        and(
          eq(assignmentExtensions.assignmentId, item.itemId),
          eq(assignmentExtensions.courseId, courseId),
          inArray(assignmentExtensions.userId, userIds),
        ),
      )
      .for('update');
    for (const r of rows) current.set(r.userId, { ...datesOfAssignment(r), reason: r.reason });
  } else {
    const rows = await tx
      .select()
      .from(quizExtensions)
      .where(
        and(eq(quizExtensions.quizCourseId, item.quizCourseId!), inArray(quizExtensions.userId, userIds)),
      )
      .for('update');
    for (const r of rows) current.set(r.userId, { ...datesOfQuiz(r), reason: r.reason });
  }
  return current;
}

/** Gives every student the same dates, replacing any they had. */
export async function upsertExtensions(
  tx: Executor,
  courseId: number,
  item: ItemInCourse,
  userIds: number[],
  dates: ExtensionDates,
  reason: string,
  grantedBy: number,
): Promise<void> {
  const grantedAt = new Date();
  if (item.kind === 'assignment') {
    const values = userIds.map((userId) => ({
      assignmentId: item.itemId,
      courseId,
      userId,
      dueAt: new Date(dates.due_at!),
      lateUntil: dates.late_until === null ? null : new Date(dates.late_until),
      reason,
      grantedBy,
      grantedAt,
    }));
    await tx
      .insert(assignmentExtensions)
      .values(values)
      .onConflictDoUpdate({
        target: [
          assignmentExtensions.assignmentId,
          assignmentExtensions.courseId,
          assignmentExtensions.userId,
        ],
        set: {
          dueAt: sql`excluded.due_at`,
          lateUntil: sql`excluded.late_until`,
          reason: sql`excluded.reason`,
          grantedBy: sql`excluded.granted_by`,
          grantedAt: sql`excluded.granted_at`,
        },
      });
    return;
  }
  const values = userIds.map((userId) => ({
    quizCourseId: item.quizCourseId!,
    userId,
    closesAt: dates.closes_at === null ? null : new Date(dates.closes_at),
    extraMinutes: dates.extra_minutes,
    reason,
    grantedBy,
    grantedAt,
  }));
  await tx
    .insert(quizExtensions)
    .values(values)
    .onConflictDoUpdate({
      target: [quizExtensions.quizCourseId, quizExtensions.userId],
      set: {
        closesAt: sql`excluded.closes_at`,
        extraMinutes: sql`excluded.extra_minutes`,
        reason: sql`excluded.reason`,
        grantedBy: sql`excluded.granted_by`,
        grantedAt: sql`excluded.granted_at`,
      },
    });
}

/** Takes the student's extension away; false when they had none. */
export async function deleteExtension(
  tx: Executor,
  courseId: number,
  item: ItemInCourse,
  userId: number,
): Promise<boolean> {
  const deleted =
    item.kind === 'assignment'
      ? await tx
          .delete(assignmentExtensions)
          .where(
            and(
              eq(assignmentExtensions.assignmentId, item.itemId),
              eq(assignmentExtensions.courseId, courseId),
              eq(assignmentExtensions.userId, userId),
            ),
          )
          .returning({ userId: assignmentExtensions.userId })
      : await tx
          .delete(quizExtensions)
          .where(and(eq(quizExtensions.quizCourseId, item.quizCourseId!), eq(quizExtensions.userId, userId)))
          .returning({ userId: quizExtensions.userId });
  return deleted.length > 0;
}

/* ─── Audit ─────────────────────────────────────────────────────────────────────────────────── */

export type AuditInsert = typeof extensionAudit.$inferInsert;
export type AuditRow = typeof extensionAudit.$inferSelect;

export async function insertAudit(tx: Executor, entries: AuditInsert[]): Promise<void> {
  if (entries.length > 0) await tx.insert(extensionAudit).values(entries);
}

export async function listAudit(
  db: Executor,
  courseId: number,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: AuditRow[] }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(extensionAudit)
      .where(eq(extensionAudit.courseId, courseId))
      .orderBy(desc(extensionAudit.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(extensionAudit)
      .where(eq(extensionAudit.courseId, courseId)),
  ]);
  return { count: counted?.n ?? 0, rows };
}
