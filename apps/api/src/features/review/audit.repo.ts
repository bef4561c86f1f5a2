import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { reviewAudit } from '../../db/schema-review.ts';

/** What an audit entry is about: the course and assignment, and the submission when it is one's. */
export interface AuditPlace {
  courseId: number;
  assignmentId: number;
  submissionId: number | null;
}

/** The place of what is done to one submission. */
export const atSubmission = (s: { id: number; courseId: number; assignmentId: number }): AuditPlace => ({
  courseId: s.courseId,
  assignmentId: s.assignmentId,
  submissionId: s.id,
});

/** Writes that `actor` did `action` at each place (the same detail for each), in the caller's transaction. */
export async function insertAudit(
  db: Executor,
  actor: Pick<Actor, 'userId' | 'email'>,
  action: string,
  places: AuditPlace[],
  detail: Record<string, unknown> = {},
): Promise<void> {
  if (places.length === 0) return;
  await db
    .insert(reviewAudit)
    .values(
      places.map((place) => ({ ...place, actorId: actor.userId, actorEmail: actor.email, action, detail })),
    );
}

/** A submission's audit, newest first, at most `limit`. */
export async function listAudit(db: Executor, submissionId: number, limit: number) {
  return db
    .select({
      id: reviewAudit.id,
      submissionId: reviewAudit.submissionId,
      action: reviewAudit.action,
      detail: reviewAudit.detail,
      actorEmail: reviewAudit.actorEmail,
      at: reviewAudit.at,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(reviewAudit)
    .where(eq(reviewAudit.submissionId, submissionId))
    .orderBy(desc(reviewAudit.at), desc(reviewAudit.id))
    .limit(limit);
}
