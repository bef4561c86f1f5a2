import type { Submission } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { scoresMayHaveChanged } from '../lti/grades.service.ts';
import { loadSubmission } from './lists.service.ts';
import { getVisibleSubmission, type SubmissionAccess } from './submission-access.ts';
import * as repo from './submissions.repo.ts';

interface FinalPath {
  assignmentId: number;
  courseId: number;
  submissionId: number;
}

/** The submission of the path, which must belong to the path's assignment and course (else 404). */
async function getPathSubmission(db: Executor, actor: Actor, path: FinalPath): Promise<SubmissionAccess> {
  const access = await getVisibleSubmission(db, actor, path.submissionId);
  const { submission } = access;
  if (submission.assignmentId !== path.assignmentId || submission.courseId !== path.courseId)
    throw notFound();
  return access;
}

const authorOf = (submission: SubmissionAccess['submission']): repo.AuthorKey => ({
  assignmentId: submission.assignmentId,
  courseId: submission.courseId,
  userId: submission.userId,
});

/**
 * `POST Submission/SelectFinal/…`: the author (or a manager on their behalf) marks a Completed
 * submission final. Under row locks on all of the author's submissions to the assignment in the course,
 * the old final is unmarked before the new one is marked, so the partial unique index
 * `submissions_one_final_key` always holds and two concurrent calls simply run one after the other.
 */
export async function selectFinal(ctx: AppContext, actor: Actor, path: FinalPath): Promise<Submission> {
  const assignmentId = await ctx.db.transaction(async (tx) => {
    const access = await getPathSubmission(tx, actor, path);
    if (!access.isOwner && !access.canManage) throw forbidden();
    const { submission } = access;
    if (submission.isReference) {
      throw conflict('A reference run cannot be a final submission.', 'reference_run');
    }
    const statuses = await repo.lockAuthorSubmissions(tx, authorOf(submission));
    const status = statuses.get(submission.id) ?? submission.status;
    if (status !== 'Completed') {
      throw conflict(
        `Only a graded (Completed) submission can be final; this one is ${status}.`,
        'not_completed',
      );
    }
    await repo.moveFinal(tx, authorOf(submission), submission.id);
    return submission.assignmentId;
  });
  // The counted score may be another now: an LMS gradebook linked by LTI gets it (docs/lti.md).
  await scoresMayHaveChanged(ctx, 'assignment', assignmentId);
  return loadSubmission(ctx, path.submissionId);
}

/** `GET Submission/SelectFinal/…`: the final submission of that submission's author (null if none). */
export async function getFinal(ctx: AppContext, actor: Actor, path: FinalPath): Promise<Submission | null> {
  const { submission } = await getPathSubmission(ctx.db, actor, path);
  const finalId = await repo.findFinalId(ctx.db, authorOf(submission));
  return finalId === null ? null : loadSubmission(ctx, finalId);
}
