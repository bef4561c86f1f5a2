import type {
  Evaluation,
  EvaluationListQuery,
  ScoreOverride,
  Submission,
  SubmissionDetail,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { listLinks } from '../assignments/assignments.service.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import * as repo from './evaluations.repo.ts';
import { enqueueGrading } from './grading.ts';
import { detailOf, loadSubmission } from './lists.service.ts';
import { getVisibleSubmission, requireSubmissionManager } from './submission-access.ts';
import { lockSubmission } from './submissions.repo.ts';
import { showsFullEvaluation, toEvaluation } from './submissions.shape.ts';
import { alreadyQueued, assertGradable, handIn } from './submit.service.ts';

/** `GET Evaluation/`: role-shaped per row, by the same rules as `Submission/{id}/`. */
export async function listEvaluations(
  ctx: AppContext,
  actor: Actor,
  query: EvaluationListQuery,
): Promise<{ count: number; limit: number; offset: number; results: Evaluation[] }> {
  // Asking for one submission: someone else's is 404, as everywhere else.
  if (query.submission !== undefined) await getVisibleSubmission(ctx.db, actor, query.submission);
  const { count, rows } = await repo.listEvaluations(ctx.db, {
    viewer: actor,
    submissionId: query.submission,
    status: query.status,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
  });
  const now = new Date();
  return {
    count,
    limit: query.limit,
    offset: query.offset,
    results: rows.map((row) =>
      toEvaluation(row, showsFullEvaluation(row.visibility, row.canManage, row.closesAt, now)),
    ),
  };
}

/**
 * Editors of the course and staff; the assignment must be given in the course. A student of the course
 * gets 403, anyone else 404.
 */
async function requireCourseManager(db: Executor, actor: Actor, assignmentId: number, courseId: number) {
  const role = await getCourseRole(db, actor, courseId);
  if (role === 'student') throw forbidden('Only editors of the course and staff can re-grade submissions.');
  const links = await listLinks(db, [assignmentId], actor.userId);
  if (!links.some((l) => l.courseId === courseId)) throw notFound();
}

async function regradeAllOf(
  ctx: AppContext,
  assignmentId: number,
  courseId: number,
): Promise<{ queued: number }> {
  const ids = await repo.listRegradableIds(ctx.db, assignmentId, courseId);
  return { queued: (await enqueueGrading(ctx, ids)).length };
}

/** `POST Score/{testcase_id}/{course_id}`: after a test changed, every submission of its assignment. */
export async function regradeByTestCase(
  ctx: AppContext,
  actor: Actor,
  testCaseId: number,
  courseId: number,
): Promise<{ queued: number }> {
  const testCase = await repo.findTestCase(ctx.db, testCaseId);
  if (!testCase) {
    // Unknown test: a member still learns nothing, an outsider gets the same 404 as for the course.
    await getCourseRole(ctx.db, actor, courseId);
    throw notFound();
  }
  await requireCourseManager(ctx.db, actor, testCase.assignmentId, courseId);
  return regradeAllOf(ctx, testCase.assignmentId, courseId);
}

/** `POST Submission/Regrade/{assignment_id}/{course_id}/`. */
export async function regradeAssignment(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<{ queued: number }> {
  await requireCourseManager(ctx.db, actor, assignmentId, courseId);
  return regradeAllOf(ctx, assignmentId, courseId);
}

/**
 * `POST Score/{submission_id}/submission_specific/`: its author hands in their own Pending submission
 * (`handIn`: the dates apply and decide `is_late`); managers queue any other submission again, whatever
 * the dates, and its `is_late` stays as it was.
 */
export async function regradeSubmission(ctx: AppContext, actor: Actor, id: number): Promise<Submission> {
  const access = await getVisibleSubmission(ctx.db, actor, id);
  const { status } = access.submission;
  if (access.isOwner && status === 'Pending') {
    await handIn(ctx, actor, access);
    return loadSubmission(ctx, id);
  }
  if (!access.canManage) throw alreadyQueued();
  if (status === 'Pending') await assertGradable(ctx.db, access);
  await enqueueGrading(ctx, [id]);
  return loadSubmission(ctx, id);
}

/**
 * `POST Submission/Score/`: a manager sets one test's result of a Completed submission by hand; the
 * score is recomputed in the same transaction. A later re-grade replaces hand-set results.
 */
export async function overrideScore(
  ctx: AppContext,
  actor: Actor,
  input: ScoreOverride,
): Promise<SubmissionDetail> {
  return ctx.db.transaction(async (tx) => {
    const access = await getVisibleSubmission(tx, actor, input.submission_id);
    requireSubmissionManager(access);
    const row = await lockSubmission(tx, input.submission_id);
    if (!row) throw notFound();
    if (row.status !== 'Completed') {
      throw conflict(
        `Only a graded (Completed) submission's results can be changed; this one is ${row.status}.`,
        'not_completed',
      );
    }
    const testCase = await repo.findTestCase(tx, input.test_case_id);
    if (!testCase || testCase.assignmentId !== row.assignmentId) {
      throw badRequest('This test case is not one of the assignment of the submission.', {
        test_case_id: ['Not a test case of this assignment.'],
      });
    }
    const points = input.points ?? (input.status === 'Correct' ? testCase.points : 0);
    if (points > testCase.points) {
      throw badRequest(`The test is worth at most ${testCase.points} point(s).`, {
        points: [`At most ${testCase.points}.`],
      });
    }
    await repo.upsertOverride(tx, {
      submissionId: row.id,
      testCaseId: testCase.id,
      status: input.status,
      points,
      overriddenBy: actor.userId,
      comment: input.comment,
    });
    await repo.recomputeScore(tx, row.id, row.assignmentId);
    return detailOf(ctx, await getVisibleSubmission(tx, actor, row.id), tx);
  });
}

/** `POST Submission/{id}/cancel/`: managers; only while Scheduled or Pending (else 409). */
export async function cancelSubmission(ctx: AppContext, actor: Actor, id: number): Promise<Submission> {
  const access = await getVisibleSubmission(ctx.db, actor, id);
  requireSubmissionManager(access);
  const canceled = await repo.cancelSubmission(ctx.db, id, 'Canceled by an editor before grading.');
  if (!canceled) {
    throw conflict(
      `Only a submission waiting to be graded (Scheduled or Pending) can be canceled; this one is ${access.submission.status}.`,
      'not_cancelable',
    );
  }
  return loadSubmission(ctx, id);
}
