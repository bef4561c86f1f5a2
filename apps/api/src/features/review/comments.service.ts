import { MAX_COMMENTS_PER_SUBMISSION, type CommentCreate, type ReviewComment } from '@kadai/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { atSubmission, insertAudit } from './audit.repo.ts';
import * as repo from './comments.repo.ts';
import { getReviewableSubmission, getVisibleSubmission, requireItemsOf } from './review-access.ts';
import { toComment } from './review-shape.ts';
import { ensureReview, listPeople } from './reviews.repo.ts';

/*
 * Comments on lines of a submitted file (docs/review.md, "Comments"). Editors start threads on a range of
 * lines; replies (editors, or the author once the review is released) join a thread and keep its lines.
 * A comment stays on the submission it was written on. Students cannot see a comment before release, so
 * for them it does not exist (404).
 */

/** How many lines a file has, as an editor counts them (a final newline does not start another). */
export function lineCount(text: string): number {
  if (text === '') return 1;
  const lines = text.split(/\r\n|\r|\n/);
  return text.endsWith('\n') || text.endsWith('\r') ? lines.length - 1 : lines.length;
}

/** 400 `review_limit` when the review already carries MAX_COMMENTS_PER_SUBMISSION comments. */
async function requireRoomForComment(db: Executor, reviewId: number): Promise<void> {
  if ((await repo.countComments(db, reviewId)) >= MAX_COMMENTS_PER_SUBMISSION) {
    throw badRequest(
      `A submission carries at most ${MAX_COMMENTS_PER_SUBMISSION} comments.`,
      undefined,
      'review_limit',
    );
  }
}

async function shaped(ctx: AppContext, row: repo.CommentRow, studentId: number): Promise<ReviewComment> {
  const people = await listPeople(ctx.db, row.authorId === null ? [] : [row.authorId]);
  return toComment(row, people, studentId);
}

/**
 * Starts a thread on lines `line_start..line_end` of one of the submission's files. 400 `line_out_of_range`
 * outside the file, `rubric_item_elsewhere` for another assignment's item, `saved_comment_elsewhere` for
 * another course's saved comment, `review_limit` past MAX_COMMENTS_PER_SUBMISSION.
 */
export async function addComment(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
  body: z.output<typeof CommentCreate>,
): Promise<ReviewComment> {
  const s = (await getReviewableSubmission(ctx, actor, submissionId)).submission;
  const text = await repo.findFileText(ctx.db, s.id, body.filename);
  if (text === null) {
    throw badRequest(`The submission has no file "${body.filename}".`, {
      filename: ['The submission has no file of this name.'],
    });
  }
  const lines = lineCount(text);
  if (body.line_end < body.line_start || body.line_end > lines) {
    const message = `Lines ${body.line_start}–${body.line_end} are not within the file's ${lines} lines.`;
    throw badRequest(message, { line_end: [message] }, 'line_out_of_range');
  }
  if (body.rubric_item_id !== null) {
    await requireItemsOf(ctx.db, s.assignmentId, [body.rubric_item_id], 'rubric_item_id');
  }
  const row = await ctx.db.transaction(async (tx) => {
    const review = await ensureReview(tx, {
      submissionId: s.id,
      assignmentId: s.assignmentId,
      courseId: s.courseId,
      userId: s.userId,
    });
    await requireRoomForComment(tx, review.id);
    if (body.saved_comment_id !== null && !(await repo.countUse(tx, body.saved_comment_id, s.courseId))) {
      const message = 'Not a saved comment of this course.';
      throw badRequest(message, { saved_comment_id: [message] }, 'saved_comment_elsewhere');
    }
    const comment = await repo.insertComment(tx, {
      reviewId: review.id,
      authorId: actor.userId,
      filename: body.filename,
      lineStart: body.line_start,
      lineEnd: body.line_end,
      body: body.body,
      rubricItemId: body.rubric_item_id,
    });
    await insertAudit(tx, actor, 'comment_added', [atSubmission(s)], {
      comment_id: comment.id,
      filename: body.filename,
      lines: [body.line_start, body.line_end],
    });
    return comment;
  });
  return shaped(ctx, row, s.userId);
}

/** The comment and what the caller may do with it; 404 when the caller cannot see it. */
async function getVisibleComment(ctx: AppContext, actor: Actor, commentId: number) {
  const found = await repo.findComment(ctx.db, commentId);
  if (!found) throw notFound();
  const access = await getVisibleSubmission(ctx.db, actor, found.submissionId);
  if (!access.canManage && !found.released) throw notFound();
  return { ...found, access };
}

/** Replies in the comment's thread: editors, and the submission's author once the review is released. */
export async function replyToComment(
  ctx: AppContext,
  actor: Actor,
  commentId: number,
  body: string,
): Promise<ReviewComment> {
  const { comment, access } = await getVisibleComment(ctx, actor, commentId);
  const s = access.submission;
  if (!access.canManage && !access.isOwner) throw notFound();
  const row = await ctx.db.transaction(async (tx) => {
    await requireRoomForComment(tx, comment.reviewId);
    const reply = await repo.insertComment(tx, {
      reviewId: comment.reviewId,
      parentId: comment.parentId ?? comment.id,
      authorId: actor.userId,
      filename: comment.filename,
      lineStart: comment.lineStart,
      lineEnd: comment.lineEnd,
      body,
    });
    await insertAudit(tx, actor, 'comment_replied', [atSubmission(s)], {
      comment_id: reply.id,
      thread: comment.parentId ?? comment.id,
    });
    return reply;
  });
  return shaped(ctx, row, s.userId);
}

/** Changes the text of a comment: its author only (403 for others who can see it). */
export async function editComment(
  ctx: AppContext,
  actor: Actor,
  commentId: number,
  body: string,
): Promise<ReviewComment> {
  const { comment, access } = await getVisibleComment(ctx, actor, commentId);
  if (comment.authorId !== actor.userId) throw forbidden('Only its author changes a comment.');
  const row = await repo.updateCommentBody(ctx.db, comment.id, body);
  if (!row) throw notFound();
  return shaped(ctx, row, access.submission.userId);
}

/** Deletes a comment (a thread's first one takes its replies): its author, or an editor. */
export async function deleteComment(ctx: AppContext, actor: Actor, commentId: number): Promise<void> {
  const { comment, access } = await getVisibleComment(ctx, actor, commentId);
  if (comment.authorId !== actor.userId && !access.canManage) {
    throw forbidden('Only its author or an editor deletes a comment.');
  }
  const s = access.submission;
  await ctx.db.transaction(async (tx) => {
    await repo.deleteComment(tx, comment.id);
    await insertAudit(tx, actor, 'comment_deleted', [atSubmission(s)], {
      comment_id: comment.id,
      body: comment.body,
    });
  });
}
