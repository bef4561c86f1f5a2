import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { regradeRequests } from '../../db/schema-review.ts';

const Row = z.object({
  id: z.coerce.number(),
  submission_id: z.coerce.number(),
  assignment_id: z.coerce.number(),
  assignment_title: z.string(),
  course_id: z.coerce.number(),
  user_id: z.coerce.number(),
  user_email: z.string(),
  user_first_name: z.string(),
  user_last_name: z.string(),
  rubric_item_id: z.coerce.number().nullable(),
  rubric_item_title: z.string().nullable(),
  comment_id: z.coerce.number().nullable(),
  reason: z.string(),
  status: z.enum(['open', 'answered']),
  answer: z.string(),
  answered_by_id: z.coerce.number().nullable(),
  answered_by_email: z.string().nullable(),
  answered_by_first_name: z.string().nullable(),
  answered_by_last_name: z.string().nullable(),
  answered_at: z.coerce.date().nullable(),
  created_at: z.coerce.date(),
  total: z.coerce.number(),
});
export type RegradeRow = z.infer<typeof Row>;

export interface RegradeFilter {
  courseId?: number;
  reviewId?: number;
  id?: number;
  status?: 'open' | 'answered';
  assignmentId?: number;
}

/** Regrade requests with their student, assignment and item, oldest first, at most `limit`. */
export async function listRegrades(
  db: Executor,
  filter: RegradeFilter,
  limit: number,
): Promise<RegradeRow[]> {
  const where = [
    filter.courseId === undefined ? sql`` : sql`and q.course_id = ${filter.courseId}`,
    filter.reviewId === undefined ? sql`` : sql`and q.review_id = ${filter.reviewId}`,
    filter.id === undefined ? sql`` : sql`and q.id = ${filter.id}`,
    filter.status === undefined ? sql`` : sql`and q.status = ${filter.status}`,
    filter.assignmentId === undefined ? sql`` : sql`and r.assignment_id = ${filter.assignmentId}`,
  ];
  const result = await db.execute(sql`
    select q.id, r.submission_id, r.assignment_id, a.title as assignment_title, q.course_id,
           u.id as user_id, u.email as user_email, u.first_name as user_first_name, u.last_name as user_last_name,
           q.rubric_item_id, ri.title as rubric_item_title, q.comment_id, q.reason, q.status, q.answer,
           b.id as answered_by_id, b.email as answered_by_email, b.first_name as answered_by_first_name,
           b.last_name as answered_by_last_name, q.answered_at, q.created_at, count(*) over () as total
    from regrade_requests q
    join reviews r on r.id = q.review_id
    join assignments a on a.id = r.assignment_id
    join users u on u.id = q.user_id
    left join rubric_items ri on ri.id = q.rubric_item_id
    left join users b on b.id = q.answered_by
    where true ${sql.join(where, sql` `)}
    order by q.created_at, q.id
    limit ${limit}`);
  return z.object({ rows: z.array(Row) }).parse(result).rows;
}

/** Records a request; null when this item or comment of the review was asked about before. */
export async function insertRegrade(
  db: Executor,
  values: typeof regradeRequests.$inferInsert,
): Promise<number | null> {
  const [row] = await db
    .insert(regradeRequests)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: regradeRequests.id });
  return row?.id ?? null;
}

export async function answerRegrade(db: Executor, id: number, answer: string, actorId: number) {
  await db.execute(sql`
    update regrade_requests set status = 'answered', answer = ${answer}, answered_by = ${actorId},
      answered_at = now()
    where id = ${id}`);
}
