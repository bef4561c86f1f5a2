import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { reviewedMax, reviewedTotal, reviewJoins } from '../../db/review-score.ts';
import { users } from '../../db/schema.ts';
import { reviewItems, reviews } from '../../db/schema-review.ts';

export type ReviewRow = typeof reviews.$inferSelect;

export async function findReview(
  db: Executor,
  submissionId: number,
  lock = false,
): Promise<ReviewRow | null> {
  const query = db.select().from(reviews).where(eq(reviews.submissionId, submissionId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export interface ReviewOwner {
  submissionId: number;
  assignmentId: number;
  courseId: number;
  userId: number;
}

/**
 * The submission's review, made when it has none (a comment's: version 0, so it is not a grading yet
 * and the editor's first save, of version 0, goes through); concurrent callers get the same row.
 */
export async function ensureReview(db: Executor, owner: ReviewOwner): Promise<ReviewRow> {
  await db
    .insert(reviews)
    .values({ ...owner, version: 0 })
    .onConflictDoNothing({ target: reviews.submissionId });
  const row = await findReview(db, owner.submissionId, true);
  if (!row) throw new Error(`review of submission ${owner.submissionId} vanished`);
  return row;
}

/** Inserts the first review of a submission; null when another editor's insert came first. */
export async function insertReview(
  db: Executor,
  values: typeof reviews.$inferInsert,
): Promise<ReviewRow | null> {
  const [row] = await db
    .insert(reviews)
    .values({ ...values, version: 0 })
    .onConflictDoNothing({ target: reviews.submissionId })
    .returning();
  return row ?? null;
}

export async function updateReview(
  db: Executor,
  id: number,
  values: Partial<typeof reviews.$inferInsert>,
): Promise<void> {
  await db
    .update(reviews)
    .set({ ...values, version: sql`${reviews.version} + 1`, updatedAt: new Date() })
    .where(eq(reviews.id, id));
}

export async function listSelectedItemIds(db: Executor, reviewId: number): Promise<number[]> {
  const rows = await db
    .select({ id: reviewItems.rubricItemId })
    .from(reviewItems)
    .where(eq(reviewItems.reviewId, reviewId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Makes the review's ticked items these; returns the sum of their points. */
export async function replaceSelectedItems(
  db: Executor,
  reviewId: number,
  itemIds: number[],
): Promise<number> {
  await db.delete(reviewItems).where(eq(reviewItems.reviewId, reviewId));
  if (itemIds.length > 0) {
    await db.insert(reviewItems).values(itemIds.map((rubricItemId) => ({ reviewId, rubricItemId })));
  }
  const result = await db.execute(sql`
    select coalesce(sum(ri.points), 0)::float8 as points
    from review_items x join rubric_items ri on ri.id = x.rubric_item_id
    where x.review_id = ${reviewId}`);
  return z.object({ rows: z.tuple([z.object({ points: z.coerce.number() })]) }).parse(result).rows[0].points;
}

const ScoreRow = z.object({
  autograde_score: z.coerce.number().nullable(),
  autograde_max: z.coerce.number().nullable(),
  rubric_points: z.coerce.number().nullable(),
  adjustment: z.coerce.number().nullable(),
  total: z.coerce.number().nullable(),
  max_score: z.coerce.number(),
});

/** The parts and the total of a submission's score with its review (released or not). */
export async function findScore(db: Executor, submissionId: number) {
  const result = await db.execute(sql`
    select s.score::float8 as autograde_score, s.max_score::float8 as autograde_max,
           rv.rubric_points, rv.adjustment, case when rv.id is null then null else ${reviewedTotal} end as total,
           ${reviewedMax}::float8 as max_score
    from submissions s ${reviewJoins(false)}
    where s.id = ${submissionId}`);
  const [row] = z.object({ rows: z.array(ScoreRow) }).parse(result).rows;
  return row ?? null;
}

/* ─── The grading queue ─────────────────────────────────────────────────────────────────────── */

const QueueRow = z.object({
  user_id: z.coerce.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  submission_id: z.coerce.number().nullable(),
  submitted_at: z.coerce.date().nullable(),
  autograde_score: z.coerce.number().nullable(),
  status: z.enum(['draft', 'graded']).nullable(),
  grader_id: z.coerce.number().nullable(),
  grader_email: z.string().nullable(),
  grader_first_name: z.string().nullable(),
  grader_last_name: z.string().nullable(),
  total: z.coerce.number().nullable(),
  released_at: z.coerce.date().nullable(),
  open_requests: z.coerce.number(),
});
export type QueueRow = z.infer<typeof QueueRow>;

/**
 * Each student of the course with the submission an editor grades: the counted one (final, else the
 * best graded), else the latest handed in; with its review when it has one. In name order.
 */
export async function listQueue(db: Executor, courseId: number, assignmentId: number): Promise<QueueRow[]> {
  const result = await db.execute(sql`
    select u.id as user_id, u.email, u.first_name, u.last_name,
           s.id as submission_id, s.created_at as submitted_at, s.score::float8 as autograde_score,
           case when rv.version = 0 then null else rv.status end as status, g.id as grader_id, g.email as grader_email, g.first_name as grader_first_name,
           g.last_name as grader_last_name,
           case when rv.id is null then null else ${reviewedTotal} end as total, rv.released_at,
           (select count(*) from regrade_requests q where q.review_id = rv.id and q.status = 'open') as open_requests
    from course_students cs
    join users u on u.id = cs.user_id
    left join lateral (
      select sb.* from submissions sb
      where sb.assignment_id = ${assignmentId} and sb.course_id = ${courseId} and sb.user_id = cs.user_id
        and not sb.is_reference and sb.status not in ('Pending', 'Canceled')
      order by sb.is_final desc, (sb.status = 'Completed' and sb.score is not null) desc,
               sb.score desc nulls last, sb.created_at desc, sb.id desc
      limit 1
    ) s on true
    ${reviewJoins(false)}
    left join users g on g.id = rv.grader_id
    where cs.course_id = ${courseId}
    order by u.last_name, u.first_name, u.email, u.id`);
  return z.object({ rows: z.array(QueueRow) }).parse(result).rows;
}

/* ─── Release ───────────────────────────────────────────────────────────────────────────────── */

/** Releases the assignment's reviews in the course (graded ones, or drafts too); their submission ids. */
/** A review just released: whose, and a digest of what its student now reads. */
export interface ReleasedReview {
  submissionId: number;
  reviewId: number;
  userId: number;
  /**
   * md5 of the score's parts, the reason, the comment and the ticked items: a release of what the
   * student already had (retracted, then released unchanged) gives the same digest.
   */
  contentDigest: string;
}

export async function releaseReviews(
  db: Executor,
  courseId: number,
  assignmentId: number,
  scope: 'graded' | 'all',
  actorId: number,
): Promise<ReleasedReview[]> {
  const rows = await db
    .update(reviews)
    .set({
      releasedAt: new Date(),
      releasedBy: actorId,
      status: 'graded',
      gradedAt: sql`coalesce(${reviews.gradedAt}, now())`,
      version: sql`${reviews.version} + 1`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(reviews.courseId, courseId),
        eq(reviews.assignmentId, assignmentId),
        isNull(reviews.releasedAt),
        scope === 'graded' ? eq(reviews.status, 'graded') : undefined,
      ),
    )
    .returning({
      submissionId: reviews.submissionId,
      reviewId: reviews.id,
      userId: reviews.userId,
      contentDigest: sql<string>`md5(concat_ws('|', ${reviews.rubricPoints}, ${reviews.adjustment},
        ${reviews.adjustmentReason}, ${reviews.comment},
        (SELECT string_agg(i.rubric_item_id::text, ',' ORDER BY i.rubric_item_id)
           FROM ${reviewItems} i WHERE i.review_id = ${reviews.id})))`,
    });
  return rows;
}

/** Hides the assignment's released reviews again; their submission ids. */
export async function retractReviews(
  db: Executor,
  courseId: number,
  assignmentId: number,
): Promise<number[]> {
  const rows = await db
    .update(reviews)
    .set({ releasedAt: null, releasedBy: null, version: sql`${reviews.version} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(reviews.courseId, courseId),
        eq(reviews.assignmentId, assignmentId),
        isNotNull(reviews.releasedAt),
      ),
    )
    .returning({ submissionId: reviews.submissionId });
  return rows.map((r) => r.submissionId);
}

/* ─── People ────────────────────────────────────────────────────────────────────────────────── */

export interface Person {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

export async function listPeople(db: Executor, ids: number[]): Promise<Map<number, Person>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email, first_name: users.firstName, last_name: users.lastName })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}
