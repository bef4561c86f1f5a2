import type { ReviewAuditList, ReviewQueue, ReviewQueueRow, ReviewStatus } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { listAudit } from './audit.repo.ts';
import { getReviewableSubmission, requireAssignmentEditor } from './review-access.ts';
import { person, round2 } from './review-shape.ts';
import * as repo from './reviews.repo.ts';

/*
 * The grading queue of an assignment (docs/review.md, "Grading queue"): every student of the course
 * with the submission an editor grades, its review's state and grader, and the progress counts. The
 * filters narrow the rows, never the counts.
 */

function toRow(r: repo.QueueRow): ReviewQueueRow {
  return {
    user: { id: r.user_id, email: r.email, first_name: r.first_name, last_name: r.last_name },
    submission_id: r.submission_id,
    submitted_at: r.submitted_at?.toISOString() ?? null,
    autograde_score: r.autograde_score,
    status: r.status ?? 'none',
    grader: person(r.grader_id, r.grader_email, r.grader_first_name, r.grader_last_name),
    total: r.total === null ? null : round2(r.total),
    released_at: r.released_at?.toISOString() ?? null,
    open_regrade_requests: r.open_requests,
  };
}

export async function getQueue(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
  filter: { grader_id?: number; status?: ReviewStatus },
): Promise<ReviewQueue> {
  const assignment = await requireAssignmentEditor(ctx, actor, courseId, assignmentId);
  const rows = (await repo.listQueue(ctx.db, courseId, assignmentId)).map(toRow);
  const graders = new Map(rows.flatMap((r) => (r.grader ? [[r.grader.id, r.grader] as const] : [])));
  return {
    assignment_id: assignmentId,
    assignment_title: assignment.title,
    course_id: courseId,
    progress: {
      students: rows.length,
      submitted: rows.filter((r) => r.submission_id !== null).length,
      graded: rows.filter((r) => r.status === 'graded').length,
      released: rows.filter((r) => r.released_at !== null).length,
      unreleased: rows.filter((r) => r.status !== 'none' && r.released_at === null).length,
    },
    graders: [...graders.values()].sort((a, b) => a.email.localeCompare(b.email)),
    rows: rows.filter(
      (r) =>
        (filter.grader_id === undefined || r.grader?.id === filter.grader_id) &&
        (filter.status === undefined || r.status === filter.status),
    ),
  };
}

/** Most entries one audit list answers (a submission's history is short; the newest come first). */
const AUDIT_LIMIT = 200;

export async function getAudit(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
): Promise<ReviewAuditList> {
  await getReviewableSubmission(ctx, actor, submissionId);
  const rows = await listAudit(ctx.db, submissionId, AUDIT_LIMIT);
  return {
    count: rows[0]?.total ?? 0,
    results: rows.map((r) => ({
      id: r.id,
      submission_id: r.submissionId,
      action: r.action,
      detail: r.detail,
      actor_email: r.actorEmail,
      at: r.at.toISOString(),
    })),
  };
}
