import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { findSubmissionView, type SubmissionView } from './submissions.repo.ts';

/**
 * Who sees a submission (docs/submissions.md, "Access"):
 * - its author, unless it is a reference run;
 * - "managers": editors of its course and staff, every submission of the course, reference runs too;
 * - nobody else: 404, as if it did not exist.
 */
export interface SubmissionAccess {
  submission: SubmissionView;
  canManage: boolean;
  isOwner: boolean;
}

export function resolveSubmissionAccess(
  actor: Pick<Actor, 'userId' | 'isStaff'>,
  submission: SubmissionView,
  viewerIsEditor: boolean,
): SubmissionAccess | null {
  const canManage = actor.isStaff || viewerIsEditor;
  const isOwner = submission.userId === actor.userId;
  if (canManage) return { submission, canManage, isOwner };
  if (isOwner && !submission.isReference) return { submission, canManage, isOwner };
  return null;
}

/** The submission as the caller may see it; 404 when it does not exist or is not theirs to see. */
export async function getVisibleSubmission(
  db: Executor,
  actor: Actor,
  id: number,
): Promise<SubmissionAccess> {
  const found = await findSubmissionView(db, id, actor.userId);
  const access = found && resolveSubmissionAccess(actor, found, found.viewerIsEditor);
  if (!access) throw notFound();
  return access;
}

/** Editors of the course and staff only; the author (who can see it) learns they may not (403). */
export function requireSubmissionManager(access: SubmissionAccess): void {
  if (!access.canManage) throw forbidden('Only editors of the course and staff can do this.');
}

/** The author only (not even staff: a submission is its author's work); others who see it get 403. */
export function requireSubmissionOwner(access: SubmissionAccess): void {
  if (!access.isOwner) throw forbidden('Only the author of the submission can change its files.');
}
