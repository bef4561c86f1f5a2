import type { ReleaseResult, Review, ReviewSave, StudentFeedback } from '@kadai/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { scoresMayHaveChanged } from '../lti/grades.service.ts';
import { atSubmission, insertAudit } from './audit.repo.ts';
import { listComments } from './comments.repo.ts';
import { tellOfFeedback } from './notices.ts';
import { listRegrades } from './regrades.repo.ts';
import {
  getReviewableSubmission,
  getVisibleSubmission,
  requireAssignmentEditor,
  requireItemsOf,
  type SubmissionAccess,
} from './review-access.ts';
import { toComment, toRegrade, toScore } from './review-shape.ts';
import * as repo from './reviews.repo.ts';
import { loadRubric } from './rubric.service.ts';

/*
 * Grading a submission by hand (docs/review.md, "Grading"): ticked rubric items, an adjustment with its
 * reason and a comment, saved as a draft or as graded. Every save names the version it read; a save over
 * someone else's meets 409 `review_conflict`, so two editors grading at once never overwrite each other.
 */

const conflictMessage =
  'Another editor saved this grading meanwhile. Reload to see their changes, then grade again.';

/** Everything about a submission's review: the rubric, the score, comments and regrade requests. */
async function loadReview(
  db: Executor,
  access: SubmissionAccess,
  known?: repo.ReviewRow | null,
): Promise<Review> {
  const s = access.submission;
  // The caller may have read the row already (the student's feedback does, to see whether it is released).
  const row = known === undefined ? await repo.findReview(db, s.id) : known;
  const [rubric, selected, score, comments, regrades] = await Promise.all([
    loadRubric(db, s.assignmentId),
    row ? repo.listSelectedItemIds(db, row.id) : Promise.resolve([]),
    repo.findScore(db, s.id),
    row ? listComments(db, row.id) : Promise.resolve([]),
    row ? listRegrades(db, { reviewId: row.id }, 1000) : Promise.resolve([]),
  ]);
  const people = await repo.listPeople(db, [
    ...comments.flatMap((c) => (c.authorId === null ? [] : [c.authorId])),
    ...(row?.graderId ? [row.graderId] : []),
  ]);
  return {
    submission_id: s.id,
    assignment_id: s.assignmentId,
    course_id: s.courseId,
    user: { id: s.userId, email: s.userEmail, first_name: s.userFirstName, last_name: s.userLastName },
    // A review made by a comment alone (version 0) is not a grading yet.
    status: row && row.version > 0 ? row.status : 'none',
    version: row?.version ?? 0,
    selected_item_ids: selected,
    adjustment_reason: row?.adjustmentReason ?? '',
    comment: row?.comment ?? '',
    score: toScore(score ?? { ...emptyScore, max_score: rubric.max_score }),
    grader: row?.graderId ? (people.get(row.graderId) ?? null) : null,
    graded_at: row?.gradedAt?.toISOString() ?? null,
    released_at: row?.releasedAt?.toISOString() ?? null,
    rubric,
    comments: comments.map((c) => toComment(c, people, s.userId)),
    regrade_requests: regrades.map(toRegrade),
  };
}

const emptyScore = {
  autograde_score: null,
  autograde_max: null,
  rubric_points: 0,
  adjustment: 0,
  total: null,
};

export async function getReview(ctx: AppContext, actor: Actor, submissionId: number): Promise<Review> {
  return loadReview(ctx.db, await getReviewableSubmission(ctx, actor, submissionId));
}

/**
 * Saves the grading of a submission. 409 `review_conflict` when `version` is not the current one (0: no
 * review yet); 400 `rubric_item_elsewhere` for an item of another assignment. Nothing changes then.
 */
export async function saveReview(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
  body: z.output<typeof ReviewSave>,
): Promise<Review> {
  const access = await getReviewableSubmission(ctx, actor, submissionId);
  const s = access.submission;
  if (s.isReference) throw badRequest('Reference runs are not graded by hand.');
  const itemIds = [...new Set(body.selected_item_ids)];
  let released = false;
  await ctx.db.transaction(async (tx) => {
    await requireItemsOf(tx, s.assignmentId, itemIds, 'selected_item_ids');
    let row = await repo.findReview(tx, s.id, true);
    if (row === null) {
      if (body.version !== 0) throw conflict(conflictMessage, 'review_conflict');
      row = await repo.insertReview(tx, {
        submissionId: s.id,
        assignmentId: s.assignmentId,
        courseId: s.courseId,
        userId: s.userId,
      });
      // Another editor's first save came between our read and our insert.
      if (row === null) throw conflict(conflictMessage, 'review_conflict');
    } else if (row.version !== body.version) {
      throw conflict(conflictMessage, 'review_conflict');
    }
    const before = { status: row.status, items: await repo.listSelectedItemIds(tx, row.id) };
    const rubricPoints = await repo.replaceSelectedItems(tx, row.id, itemIds);
    await repo.updateReview(tx, row.id, {
      status: body.status,
      rubricPoints,
      adjustment: body.adjustment,
      adjustmentReason: body.adjustment_reason,
      comment: body.comment,
      graderId: actor.userId,
      gradedAt: body.status === 'graded' ? new Date() : row.gradedAt,
    });
    released = row.releasedAt !== null;
    await insertAudit(tx, actor, body.status === 'graded' ? 'graded' : 'draft_saved', [atSubmission(s)], {
      before: { ...before, adjustment: row.adjustment },
      after: { status: body.status, items: itemIds.sort((a, b) => a - b), adjustment: body.adjustment },
      reason: body.adjustment_reason,
    });
  });
  if (released) await scoresMayHaveChanged(ctx, 'assignment', s.assignmentId);
  return loadReview(ctx.db, access);
}

/* ─── Release ───────────────────────────────────────────────────────────────────────────────── */

/**
 * Releases the assignment's reviews in the course (`scope`), or hides released ones again; audited per
 * submission, and an LMS that receives the grades is told when something changed. A release notifies
 * each student in the same transaction (notices.ts); a retraction tells nobody.
 */
async function changeRelease(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
  change: { release: 'graded' | 'all' } | { retract: true },
): Promise<number> {
  const assignment = await requireAssignmentEditor(ctx, actor, courseId, assignmentId);
  const count = await ctx.db.transaction(async (tx) => {
    let ids: number[];
    if ('release' in change) {
      const released = await repo.releaseReviews(tx, courseId, assignmentId, change.release, actor.userId);
      await tellOfFeedback(tx, released, { courseId, title: assignment.title }, actor.userId);
      ids = released.map((review) => review.submissionId);
    } else {
      ids = await repo.retractReviews(tx, courseId, assignmentId);
    }
    const places = ids.map((submissionId) => ({ courseId, assignmentId, submissionId }));
    if ('release' in change) await insertAudit(tx, actor, 'released', places, { scope: change.release });
    else await insertAudit(tx, actor, 'retracted', places);
    return ids.length;
  });
  if (count > 0) await scoresMayHaveChanged(ctx, 'assignment', assignmentId);
  return count;
}

export async function releaseReviews(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
  scope: 'graded' | 'all',
): Promise<ReleaseResult> {
  const released = await changeRelease(ctx, actor, courseId, assignmentId, { release: scope });
  return { released, retracted: 0 };
}

export async function retractReviews(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
): Promise<ReleaseResult> {
  const retracted = await changeRelease(ctx, actor, courseId, assignmentId, { retract: true });
  return { released: 0, retracted };
}

/* ─── What the student sees ─────────────────────────────────────────────────────────────────── */

/**
 * The released review of a submission, for its author (and its editors, to see what the student sees).
 * Before release: `released: false` and nothing else — not even whether a draft exists.
 */
export async function getFeedback(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
): Promise<StudentFeedback> {
  const access = await getVisibleSubmission(ctx.db, actor, submissionId);
  const s = access.submission;
  const row = await repo.findReview(ctx.db, s.id);
  if (!row?.releasedAt) {
    return {
      submission_id: s.id,
      released: false,
      released_at: null,
      score: null,
      settings: null,
      rubric: [],
      adjustment_reason: '',
      comment: '',
      grader: null,
      comments: [],
      regrade_requests: [],
    };
  }
  const review = await loadReview(ctx.db, access, row);
  const selected = new Set(review.selected_item_ids);
  return {
    submission_id: s.id,
    released: true,
    released_at: review.released_at,
    score: review.score,
    settings: review.rubric.settings,
    rubric: review.rubric.items.map(({ uses: _uses, ...item }) => ({
      ...item,
      selected: selected.has(item.id),
    })),
    adjustment_reason: review.adjustment_reason,
    comment: review.comment,
    grader: review.grader,
    comments: review.comments,
    regrade_requests: review.regrade_requests,
  };
}
