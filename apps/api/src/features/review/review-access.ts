import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { getVisibleSubmission, type SubmissionAccess } from '../submissions/submission-access.ts';
import { findAssignmentInCourse, listItemIdsOf, type AssignmentInCourse } from './rubric.repo.ts';

/*
 * Who does what with reviews (docs/review.md, "Who sees what"): editors of the course and staff grade,
 * comment, release and answer; the author of a submission reads its review once released, replies and
 * asks for regrades; nobody else learns a review exists (404, as for the submission itself).
 */

/** Editors of the course and staff; a student of it gets 403, anyone else 404. */
export async function requireCourseEditor(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff grade and review.');
}

/** The assignment as given in the course, for its editors; 404 when it is not given there. */
export async function requireAssignmentEditor(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
): Promise<AssignmentInCourse> {
  await requireCourseEditor(ctx, actor, courseId);
  const assignment = await findAssignmentInCourse(ctx.db, courseId, assignmentId);
  if (!assignment) throw notFound('No such assignment in this course.');
  return assignment;
}

/** A submission an editor reviews: 404 when the caller cannot see it, 403 for its author. */
export async function getReviewableSubmission(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
): Promise<SubmissionAccess> {
  const access = await getVisibleSubmission(ctx.db, actor, submissionId);
  if (!access.canManage) throw forbidden('Only editors of the course and staff grade and review.');
  return access;
}

/**
 * Refuses, with 400 `rubric_item_elsewhere` naming `field`, rubric item ids that are not the
 * assignment's (another assignment's, or none at all).
 */
export async function requireItemsOf(
  db: Executor,
  assignmentId: number,
  ids: number[],
  field: string,
): Promise<void> {
  const known = await listItemIdsOf(db, assignmentId, ids);
  const strangers = ids.filter((id) => !known.has(id));
  if (strangers.length > 0) {
    const message = `Not items of this assignment's rubric: ${strangers.join(', ')}.`;
    throw badRequest(message, { [field]: [message] }, 'rubric_item_elsewhere');
  }
}

export { getVisibleSubmission, type SubmissionAccess };
