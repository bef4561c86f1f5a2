import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EvaluationList,
  EvaluationListQuery,
  IdParams,
  LeaderboardParams,
  RegradeResult,
  ScoreOverride,
  ScoreTestCaseParams,
  Submission,
  SubmissionDetail,
  SubmissionIdParams,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as evaluations from './evaluations.service.ts';
import { conflictErrors, errors } from './route-errors.ts';

export function registerEvaluationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['submissions'];

  api.get(
    '/Evaluation/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Per-test results of the submissions the caller may see (role-shaped)',
        description:
          'Students get `view: "hidden"` (the verdict only) for hidden tests, and for after_due tests ' +
          'before the due date. Reference runs appear only when asked for by `submission`.',
        querystring: EvaluationListQuery,
        response: { 200: EvaluationList, ...errors },
      },
    },
    async (request) => evaluations.listEvaluations(ctx, actorOf(request), request.query),
  );

  api.post(
    '/Score/:testcase_id/:course_id',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Re-grade every submission of the test’s assignment in the course (its managers)',
        params: ScoreTestCaseParams,
        response: { 200: RegradeResult, ...errors },
      },
    },
    async (request) =>
      evaluations.regradeByTestCase(
        ctx,
        actorOf(request),
        request.params.testcase_id,
        request.params.course_id,
      ),
  );

  api.post(
    '/Score/:submission_id/submission_specific/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Queue one submission for grading (managers: every one; its author: their Pending one)',
        params: SubmissionIdParams,
        response: { 200: Submission, ...conflictErrors },
      },
    },
    async (request) => evaluations.regradeSubmission(ctx, actorOf(request), request.params.submission_id),
  );

  api.post(
    '/Submission/Score/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Set one test’s result of a Completed submission by hand (its managers)',
        body: ScoreOverride,
        response: { 200: SubmissionDetail, ...conflictErrors },
      },
    },
    async (request) => evaluations.overrideScore(ctx, actorOf(request), request.body),
  );

  api.post(
    '/Submission/:id/cancel/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Cancel a submission waiting to be graded (Scheduled or Pending; its managers)',
        params: IdParams,
        response: { 200: Submission, ...conflictErrors },
      },
    },
    async (request) => evaluations.cancelSubmission(ctx, actorOf(request), request.params.id),
  );

  api.post(
    '/Submission/Regrade/:assignment_id/:course_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Re-grade every submission of an assignment in a course (its managers)',
        params: LeaderboardParams,
        response: { 200: RegradeResult, ...errors },
      },
    },
    async (request) =>
      evaluations.regradeAssignment(
        ctx,
        actorOf(request),
        request.params.assignment_id,
        request.params.course_id,
      ),
  );
}
