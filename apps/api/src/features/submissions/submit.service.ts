import type { FastifyRequest } from 'fastify';
import type { Submission, SubmissionFile, SubmitRequest } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, conflict, notFound } from '../../lib/errors.ts';
import { keyReused, requestHash } from '../../lib/idempotency.ts';
import { readUploadedFiles } from '../../lib/uploads.ts';
import { closesAt } from '../assignments/assignment-access.ts';
import { findAssignment, listLinks } from '../assignments/assignments.service.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { enqueueGrading, sendGradingJobs } from './grading.ts';
import { checkAddedFiles, checkComplete, decodeSubmission, type FileRules } from './file-rules.ts';
import { loadSubmission } from './lists.service.ts';
import { getVisibleSubmission, requireSubmissionOwner, type SubmissionAccess } from './submission-access.ts';
import * as repo from './submissions.repo.ts';
import { toSubmissionFile } from './submissions.shape.ts';

/** At most this many submissions per person, assignment and course within the window (429 beyond). */
export const SUBMIT_RATE = { max: 10, windowSeconds: 60 } as const;

export interface Target {
  rules: FileRules;
  opensAt: Date;
  dueAt: Date;
  lateUntil: Date | null;
}

/** The assignment as given in the course, or 404 (no such assignment, or not in that course). */
export async function findTarget(
  db: Executor,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<Target> {
  const assignment = await findAssignment(db, assignmentId);
  const link =
    assignment && (await listLinks(db, [assignmentId], actor.userId)).find((l) => l.courseId === courseId);
  if (!assignment || !link) throw notFound();
  return {
    rules: {
      entryFile: assignment.entryFile,
      requiredFiles: assignment.requiredFiles,
      allowedExtensions: assignment.allowedExtensions,
      maxFiles: assignment.maxFiles,
      maxFileBytes: assignment.maxFileBytes,
    },
    opensAt: link.opensAt,
    dueAt: link.dueAt,
    lateUntil: link.lateUntil,
  };
}

/**
 * 403 outside the window in which the course accepts submissions (docs/submissions.md, "Deadlines").
 * Checked when a submission is made and again whenever its author changes or hands in a Pending one:
 * what counts is when the content is handed in, not when the empty row was opened.
 */
export function assertOpen(target: Target, now: Date): void {
  if (now.getTime() < target.opensAt.getTime()) {
    throw new HttpError(403, 'not_open', 'This assignment is not open yet.');
  }
  if (now.getTime() > closesAt(target).getTime()) {
    throw new HttpError(403, 'closed', 'The deadline has passed; submissions are closed.');
  }
}

async function assertRate(db: Executor, key: { assignmentId: number; courseId: number; userId: number }) {
  const recent = await repo.countRecentSubmissions(db, key, SUBMIT_RATE.windowSeconds);
  if (recent.count < SUBMIT_RATE.max) return;
  const wait = Math.max(1, recent.retryAfterSeconds);
  throw new HttpError(
    429,
    'throttled',
    `You have submitted ${recent.count} times in the last minute; try again in ${wait} seconds.`,
    undefined,
    { 'retry-after': String(wait) },
  );
}

/**
 * `POST Submission/Submit/`: every member of the course may submit (students; editors and staff too,
 * as their own).
 * The row and its files are committed in one transaction before grading is queued, so a queue failure
 * never loses a submission (it stays Scheduled for a grader's sweep).
 *
 * With an `Idempotency-Key`, a submit that repeats one the person already made with that key — a client
 * or proxy retrying after a timeout, when the first had committed — answers with that submission
 * (`replayed`) and creates nothing, even after the deadline or past the rate limit: the first was in
 * time. The same key with another body is refused (422).
 */
export async function submit(
  ctx: AppContext,
  actor: Actor,
  body: SubmitRequest,
  idempotencyKey: string | null = null,
): Promise<{ submission: Submission; replayed: boolean }> {
  const now = new Date();
  const hash = idempotencyKey === null ? null : requestHash(body);
  const made = await ctx.db.transaction(async (tx) => {
    await getCourseRole(tx, actor, body.course_id);
    const target = await findTarget(tx, actor, body.assignment_id, body.course_id);
    if (idempotencyKey !== null) {
      await repo.lockSubmitKey(tx, actor.userId, idempotencyKey);
      const earlier = await repo.findSubmitKey(tx, actor.userId, idempotencyKey);
      if (earlier) {
        if (earlier.requestHash !== hash) throw keyReused();
        return { id: earlier.submissionId, replayed: true };
      }
    }
    assertOpen(target, now);
    const key = { assignmentId: body.assignment_id, courseId: body.course_id, userId: actor.userId };
    // Held until commit: parallel submits count one after the other, so none slips past the limit.
    await repo.lockSubmitter(tx, key);
    await assertRate(tx, key);
    const files = decodeSubmission(body, target.rules.entryFile);
    checkAddedFiles(
      target.rules,
      [],
      files.map((f) => ({ filename: f.filename, size: f.content.length })),
    );
    if (!body.upload_files_later) {
      checkComplete(
        target.rules,
        files.map((f) => f.filename),
      );
    }
    const id = await repo.insertSubmission(tx, { ...key, isLate: now.getTime() > target.dueAt.getTime() });
    await repo.insertFiles(tx, id, files);
    if (idempotencyKey !== null && hash !== null) {
      await repo.insertSubmitKey(tx, {
        userId: actor.userId,
        key: idempotencyKey,
        requestHash: hash,
        submissionId: id,
      });
    }
    return { id, replayed: false };
  });
  // A replay queues nothing: the first was queued (or is Scheduled for a grader's sweep).
  if (!made.replayed && !body.upload_files_later) await enqueueGrading(ctx, [made.id]);
  return { submission: await loadSubmission(ctx, made.id), replayed: made.replayed };
}

/* ─── FileSubmission: files added to a Pending submission ────────────────────────────────────── */

async function rulesOf(db: Executor, access: SubmissionAccess): Promise<FileRules> {
  const assignment = await findAssignment(db, access.submission.assignmentId);
  if (!assignment) throw notFound();
  return {
    entryFile: assignment.entryFile,
    requiredFiles: assignment.requiredFiles,
    allowedExtensions: assignment.allowedExtensions,
    maxFiles: assignment.maxFiles,
    maxFileBytes: assignment.maxFileBytes,
  };
}

const notPending = () =>
  conflict(
    'Files can be changed only while the submission is Pending (before it is queued for grading).',
    'not_pending',
  );

/** The dates and rules of the submission's assignment in its course. */
function targetOf(
  db: Executor,
  actor: Actor,
  submission: { assignmentId: number; courseId: number },
): Promise<Target> {
  return findTarget(db, actor, submission.assignmentId, submission.courseId);
}

/** For the author, while Pending: anyone else who sees it gets 403, the rest 404. */
async function getOwnPending(db: Executor, actor: Actor, submissionId: number): Promise<SubmissionAccess> {
  const access = await getVisibleSubmission(db, actor, submissionId);
  requireSubmissionOwner(access);
  if (access.submission.status !== 'Pending') throw notPending();
  return access;
}

export async function listFiles(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
): Promise<SubmissionFile[]> {
  await getVisibleSubmission(ctx.db, actor, submissionId);
  return (await repo.listFileMeta(ctx.db, [submissionId])).map((f) => toSubmissionFile(ctx.config, f));
}

/**
 * `POST FileSubmission/` (multipart): access, state and dates are checked before the body is read, the
 * limits while it is read, and everything again under the submission's row lock before the files are
 * stored, all or none.
 */
export async function addFiles(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
  request: FastifyRequest,
): Promise<SubmissionFile[]> {
  const access = await getOwnPending(ctx.db, actor, submissionId);
  const before = await targetOf(ctx.db, actor, access.submission);
  assertOpen(before, new Date());
  const { files } = await readUploadedFiles(request, {
    maxFiles: before.rules.maxFiles,
    maxFileBytes: before.rules.maxFileBytes,
    // Code files keep importable names (contracts' FileName); attachments take any script.
    names: 'code',
  });
  const added = await ctx.db.transaction(async (tx) => {
    const row = await repo.lockSubmission(tx, submissionId);
    if (!row) throw notFound();
    if (row.status !== 'Pending') throw notPending();
    // Again: the upload may have run past the cut-off, or the dates changed meanwhile.
    const target = await targetOf(tx, actor, row);
    assertOpen(target, new Date());
    const existing = await repo.listFileMeta(tx, [submissionId]);
    checkAddedFiles(
      target.rules,
      existing,
      files.map((f) => ({ filename: f.filename, size: f.data.length })),
    );
    return repo.insertFiles(
      tx,
      submissionId,
      files.map((f) => ({ filename: f.filename, content: f.data })),
    );
  });
  return added.map((f) => toSubmissionFile(ctx.config, f));
}

export async function deleteFile(
  ctx: AppContext,
  actor: Actor,
  submissionId: number,
  fileId: number,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getOwnPending(tx, actor, submissionId);
    const row = await repo.lockSubmission(tx, submissionId);
    if (row?.status !== 'Pending') throw notPending();
    assertOpen(await targetOf(tx, actor, row), new Date());
    if (!(await repo.deleteFile(tx, submissionId, fileId))) throw notFound();
  });
}

/** Checks a Pending submission is complete enough to grade (a manager queueing someone's Pending one). */
export async function assertGradable(db: Executor, access: SubmissionAccess): Promise<void> {
  const rules = await rulesOf(db, access);
  const files = await repo.listFileMeta(db, [access.submission.id]);
  checkComplete(
    rules,
    files.map((f) => f.filename),
  );
}

/**
 * The author queues their Pending submission: this is when it is handed in, so the dates are checked as
 * by `submit` (403 `not_open` / `closed`) and `is_late` is set from now. Under the row lock, and the
 * update applies only while still Pending: an editor's cancel in between wins (409 `not_pending`).
 */
export async function handIn(ctx: AppContext, actor: Actor, access: SubmissionAccess): Promise<void> {
  requireSubmissionOwner(access);
  const submissionId = access.submission.id;
  const queued = await ctx.db.transaction(async (tx) => {
    const row = await repo.lockSubmission(tx, submissionId);
    if (!row) throw notFound();
    if (row.status !== 'Pending') throw alreadyQueued();
    const now = new Date();
    const target = await targetOf(tx, actor, row);
    assertOpen(target, now);
    const files = await repo.listFileMeta(tx, [submissionId]);
    checkComplete(
      target.rules,
      files.map((f) => f.filename),
    );
    const isLate = now.getTime() > target.dueAt.getTime();
    const ids = await repo.markScheduled(tx, [submissionId], { fromStatus: 'Pending', isLate });
    if (ids.length === 0) throw alreadyQueued();
    return ids;
  });
  // After commit, as in `submit`: a queue failure leaves it Scheduled for a grader's sweep.
  await sendGradingJobs(ctx, queued);
}

export const alreadyQueued = () =>
  conflict(
    'This submission is no longer Pending (it was queued, graded or canceled); only editors and staff can re-grade it.',
    'not_pending',
  );
