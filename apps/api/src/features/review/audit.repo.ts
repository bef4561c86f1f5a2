import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { reviewAudit } from '../../db/schema-review.ts';

export interface AuditEntry {
  courseId: number;
  assignmentId: number;
  submissionId: number | null;
  actorId: number;
  actorEmail: string;
  action: string;
  detail: Record<string, unknown>;
}

export async function insertAudit(db: Executor, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await db.insert(reviewAudit).values(entries);
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
