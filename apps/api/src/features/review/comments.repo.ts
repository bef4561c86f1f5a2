import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { submissionFiles } from '../../db/schema-assignments.ts';
import { assignmentCourses } from '../../db/schema-assignments.ts';
import { reviewComments, reviews, rubricItems, savedComments } from '../../db/schema-review.ts';

/* ─── Comments on lines ─────────────────────────────────────────────────────────────────────── */

export type CommentRow = typeof reviewComments.$inferSelect;

export function listComments(db: Executor, reviewId: number): Promise<CommentRow[]> {
  return db
    .select()
    .from(reviewComments)
    .where(eq(reviewComments.reviewId, reviewId))
    .orderBy(asc(reviewComments.id));
}

export async function countComments(db: Executor, reviewId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewComments)
    .where(eq(reviewComments.reviewId, reviewId));
  return row?.n ?? 0;
}

/** A comment with the review and submission it belongs to; null when there is none. */
export async function findComment(db: Executor, id: number) {
  const [row] = await db
    .select({
      comment: reviewComments,
      submissionId: reviews.submissionId,
      released: sql<boolean>`${reviews.releasedAt} is not null`,
    })
    .from(reviewComments)
    .innerJoin(reviews, eq(reviews.id, reviewComments.reviewId))
    .where(eq(reviewComments.id, id));
  return row ?? null;
}

export async function insertComment(db: Executor, values: typeof reviewComments.$inferInsert) {
  const [row] = await db.insert(reviewComments).values(values).returning();
  if (!row) throw new Error('comment insert returned nothing');
  return row;
}

export async function updateCommentBody(db: Executor, id: number, body: string): Promise<CommentRow | null> {
  const [row] = await db
    .update(reviewComments)
    .set({ body, updatedAt: new Date() })
    .where(eq(reviewComments.id, id))
    .returning();
  return row ?? null;
}

export async function deleteComment(db: Executor, id: number): Promise<void> {
  await db.delete(reviewComments).where(eq(reviewComments.id, id));
}

/** The text of one submitted file, or null when the submission has no file of that name. */
export async function findFileText(db: Executor, submissionId: number, filename: string) {
  const [row] = await db
    .select({ content: submissionFiles.content })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, submissionId), eq(submissionFiles.filename, filename)));
  return row ? row.content.toString('utf8') : null;
}

/* ─── Saved comments ────────────────────────────────────────────────────────────────────────── */

export type SavedRow = typeof savedComments.$inferSelect;

export function listSaved(db: Executor, courseId: number, limit: number): Promise<SavedRow[]> {
  return db
    .select()
    .from(savedComments)
    .where(eq(savedComments.courseId, courseId))
    .orderBy(asc(savedComments.title), asc(savedComments.id))
    .limit(limit);
}

export async function countSaved(db: Executor, courseId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedComments)
    .where(eq(savedComments.courseId, courseId));
  return row?.n ?? 0;
}

export async function findSaved(db: Executor, id: number): Promise<SavedRow | null> {
  const [row] = await db.select().from(savedComments).where(eq(savedComments.id, id));
  return row ?? null;
}

export async function insertSaved(db: Executor, values: typeof savedComments.$inferInsert) {
  const [row] = await db.insert(savedComments).values(values).returning();
  if (!row) throw new Error('saved comment insert returned nothing');
  return row;
}

export async function updateSaved(
  db: Executor,
  id: number,
  values: Partial<typeof savedComments.$inferInsert>,
) {
  const [row] = await db
    .update(savedComments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(savedComments.id, id))
    .returning();
  return row ?? null;
}

export async function deleteSaved(db: Executor, id: number): Promise<void> {
  await db.delete(savedComments).where(eq(savedComments.id, id));
}

/** Counts one more use of a saved comment of the course; false when it is not one of the course's. */
export async function countUse(db: Executor, id: number, courseId: number): Promise<boolean> {
  const rows = await db
    .update(savedComments)
    .set({ uses: sql`${savedComments.uses} + 1` })
    .where(and(eq(savedComments.id, id), eq(savedComments.courseId, courseId)))
    .returning({ id: savedComments.id });
  return rows.length > 0;
}

/** Whether the rubric item belongs to an assignment given in the course. */
export async function isRubricItemOfCourse(db: Executor, itemId: number, courseId: number): Promise<boolean> {
  const rows = await db
    .select({ id: rubricItems.id })
    .from(rubricItems)
    .innerJoin(
      assignmentCourses,
      and(
        eq(assignmentCourses.assignmentId, rubricItems.assignmentId),
        eq(assignmentCourses.courseId, courseId),
      ),
    )
    .where(eq(rubricItems.id, itemId))
    .limit(1);
  return rows.length > 0;
}
