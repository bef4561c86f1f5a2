import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { assignmentCourses, assignments } from '../../db/schema-assignments.ts';
import { reviewItems, reviewSettings, rubricItems } from '../../db/schema-review.ts';

/* ─── The assignment in its course ──────────────────────────────────────────────────────────── */

export interface AssignmentInCourse {
  id: number;
  title: string;
}

export async function findAssignmentInCourse(
  db: Executor,
  courseId: number,
  assignmentId: number,
): Promise<AssignmentInCourse | null> {
  const [row] = await db
    .select({ id: assignments.id, title: assignments.title })
    .from(assignmentCourses)
    .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
    .where(and(eq(assignmentCourses.courseId, courseId), eq(assignmentCourses.assignmentId, assignmentId)))
    .limit(1);
  return row ?? null;
}

/** Takes the assignment's row lock: rubric saves of one assignment run one after the other. */
export async function lockAssignment(db: Executor, assignmentId: number): Promise<void> {
  await db
    .select({ id: assignments.id })
    .from(assignments)
    .where(eq(assignments.id, assignmentId))
    .for('update');
}

/* ─── Settings and items ────────────────────────────────────────────────────────────────────── */

export interface Settings {
  autogradeWeight: number;
  rubricWeight: number;
  rubricMax: number;
}

export const DEFAULT_SETTINGS: Settings = { autogradeWeight: 1, rubricWeight: 1, rubricMax: 0 };

export async function findSettings(db: Executor, assignmentId: number): Promise<Settings> {
  const [row] = await db
    .select({
      autogradeWeight: reviewSettings.autogradeWeight,
      rubricWeight: reviewSettings.rubricWeight,
      rubricMax: reviewSettings.rubricMax,
    })
    .from(reviewSettings)
    .where(eq(reviewSettings.assignmentId, assignmentId));
  return row ?? DEFAULT_SETTINGS;
}

export async function upsertSettings(db: Executor, assignmentId: number, settings: Settings): Promise<void> {
  await db
    .insert(reviewSettings)
    .values({ assignmentId, ...settings })
    .onConflictDoUpdate({ target: reviewSettings.assignmentId, set: { ...settings, updatedAt: new Date() } });
}

export interface ItemRow {
  id: number;
  group: string;
  title: string;
  description: string;
  points: number;
  position: number;
  uses: number;
}

export function listItems(db: Executor, assignmentId: number): Promise<ItemRow[]> {
  return db
    .select({
      id: rubricItems.id,
      group: rubricItems.groupTitle,
      title: rubricItems.title,
      description: rubricItems.description,
      points: rubricItems.points,
      position: rubricItems.position,
      uses: sql<number>`(select count(*)::int from ${reviewItems} where ${reviewItems.rubricItemId} = ${rubricItems.id})`,
    })
    .from(rubricItems)
    .where(eq(rubricItems.assignmentId, assignmentId))
    .orderBy(asc(rubricItems.position), asc(rubricItems.id));
}

/** Of these ids, those that are items of the assignment's rubric. */
export async function listItemIdsOf(db: Executor, assignmentId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: rubricItems.id })
    .from(rubricItems)
    .where(and(eq(rubricItems.assignmentId, assignmentId), inArray(rubricItems.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export interface NewItem {
  id?: number;
  group: string;
  title: string;
  description: string;
  points: number;
}

/** Makes the rubric these items, in this order: ids kept are changed, the others deleted, new ones added. */
export async function replaceItems(db: Executor, assignmentId: number, items: NewItem[]): Promise<void> {
  const kept = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  await db
    .delete(rubricItems)
    .where(
      and(
        eq(rubricItems.assignmentId, assignmentId),
        kept.length === 0 ? undefined : notInArray(rubricItems.id, kept),
      ),
    );
  for (const [position, item] of items.entries()) {
    const values = {
      groupTitle: item.group,
      title: item.title,
      description: item.description,
      points: item.points,
      position,
    };
    if (item.id === undefined) await db.insert(rubricItems).values({ assignmentId, ...values });
    else
      await db
        .update(rubricItems)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(rubricItems.id, item.id), eq(rubricItems.assignmentId, assignmentId)));
  }
}

/**
 * Brings every review of the assignment to the rubric's current points; returns the submissions and
 * courses of those whose points changed (their version grows, so an editor's open grading form meets a
 * 409, not stale numbers).
 */
export async function recomputeReviews(
  db: Executor,
  assignmentId: number,
): Promise<{ submissionId: number; courseId: number }[]> {
  const result = await db.execute(sql`
    update reviews r set rubric_points = t.points, version = r.version + 1, updated_at = now()
    from (
      select r2.id, coalesce(sum(ri.points), 0)::float8 as points
      from reviews r2
      left join review_items x on x.review_id = r2.id
      left join rubric_items ri on ri.id = x.rubric_item_id
      where r2.assignment_id = ${assignmentId}
      group by r2.id
    ) t
    where r.id = t.id and r.rubric_points is distinct from t.points
    returning r.submission_id, r.course_id`);
  const Rows = z.object({
    rows: z.array(z.object({ submission_id: z.coerce.number(), course_id: z.coerce.number() })),
  });
  return Rows.parse(result).rows.map((r) => ({ submissionId: r.submission_id, courseId: r.course_id }));
}

/** The autograder's maximum of the assignment: its test cases' points (drafts do not count). */
export async function findAutogradeMax(db: Executor, assignmentId: number): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(sum(points), 0)::float8 as total from test_cases
    where assignment_id = ${assignmentId} and not draft`);
  return z.object({ rows: z.tuple([z.object({ total: z.coerce.number() })]) }).parse(result).rows[0].total;
}
