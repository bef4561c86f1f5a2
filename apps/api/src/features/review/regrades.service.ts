import type { RegradeAsk, RegradeList, RegradeRequest } from '@kadai/contracts';
import type { z } from 'zod';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import { atSubmission, insertAudit } from './audit.repo.ts';
import { findComment } from './comments.repo.ts';
import * as repo from './regrades.repo.ts';
import { getVisibleSubmission, requireCourseEditor, requireItemsOf } from './review-access.ts';
import { toRegrade } from './review-shape.ts';
import { findReview } from './reviews.repo.ts';

/*
 * Regrade requests (docs/review.md, "Regrade requests"): after release the author of a submission may ask
 * once per rubric item and once per comment thread, with a reason; editors answer, and change the grade
 * through the review as usual. Asking and answering are audited.
 */

/** Most requests one list answers. */
const LIST_LIMIT = 500;

async function getOne(ctx: AppContext, id: number): Promise<RegradeRequest> {
  const [row] = await repo.listRegrades(ctx.db, { id }, 1);
  if (!row) throw notFound();
  return toRegrade(row);
}

export async function askRegrade(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
  body: z.output<typeof RegradeAsk>,
): Promise<RegradeRequest> {
  const access = await getVisibleSubmission(ctx.db, actor, submissionId);
  if (!access.isOwner) throw forbidden('Only the author of the submission asks for a regrade.');
  const s = access.submission;
  const review = await findReview(ctx.db, s.id);
  if (!review?.releasedAt) {
    throw new HttpError(403, 'review_not_released', 'This submission has no released grading to ask about.');
  }
  if (body.rubric_item_id !== null) {
    await requireItemsOf(ctx.db, s.assignmentId, [body.rubric_item_id], 'rubric_item_id');
  }
  if (body.comment_id !== null) {
    const found = await findComment(ctx.db, body.comment_id);
    if (!found || found.comment.reviewId !== review.id || found.comment.parentId !== null) {
      const message = 'Not a comment thread of this submission.';
      throw badRequest(message, { comment_id: [message] }, 'not_a_thread');
    }
  }
  const id = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertRegrade(tx, {
      reviewId: review.id,
      courseId: s.courseId,
      userId: actor.userId,
      rubricItemId: body.rubric_item_id,
      commentId: body.comment_id,
      reason: body.reason,
    });
    if (inserted === null) {
      throw conflict('You have already asked for a regrade of this.', 'regrade_already_asked');
    }
    await insertAudit(tx, actor, 'regrade_asked', [atSubmission(s)], {
      request_id: inserted,
      rubric_item_id: body.rubric_item_id,
      comment_id: body.comment_id,
    });
    return inserted;
  });
  return getOne(ctx, id);
}

export async function listCourseRegrades(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  query: { status?: 'open' | 'answered'; assignment_id?: number },
): Promise<RegradeList> {
  await requireCourseEditor(ctx, actor, courseId);
  const rows = await repo.listRegrades(
    ctx.db,
    { courseId, status: query.status, assignmentId: query.assignment_id },
    LIST_LIMIT,
  );
  return { count: rows[0]?.total ?? 0, results: rows.map(toRegrade) };
}

export async function answerRegrade(
  ctx: AppContext,
  actor: Actor,
  id: number,
  answer: string,
): Promise<RegradeRequest> {
  const request = await getOne(ctx, id);
  await requireCourseEditor(ctx, actor, request.course_id);
  await ctx.db.transaction(async (tx) => {
    await repo.answerRegrade(tx, id, answer, actor.userId);
    const place = {
      courseId: request.course_id,
      assignmentId: request.assignment_id,
      submissionId: request.submission_id,
    };
    await insertAudit(tx, actor, 'regrade_answered', [place], { request_id: id, answer });
  });
  return getOne(ctx, id);
}
