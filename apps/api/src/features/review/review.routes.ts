import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AssignmentInCourseParams,
  ErrorBody,
  IdParams,
  ReleaseRequest,
  ReleaseResult,
  Review,
  ReviewAuditList,
  ReviewQueue,
  ReviewQueueQuery,
  ReviewSave,
  Rubric,
  RubricSave,
  StudentFeedback,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { getAudit, getQueue } from './queue.service.ts';
import { getFeedback, getReview, releaseReviews, retractReviews, saveReview } from './reviews.service.ts';
import { getRubric, saveRubric } from './rubric.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['review'];
const ASSIGNMENT = '/Course/:id/assignments/:assignment_id';

/** Rubrics, grading by hand, release and the student's feedback (docs/review.md). */
export function registerReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    `${ASSIGNMENT}/rubric/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The assignment's rubric and score settings (editors, staff)",
        params: AssignmentInCourseParams,
        response: { 200: Rubric, ...errors },
      },
    },
    async (request) => getRubric(ctx, actorOf(request), request.params.id, request.params.assignment_id),
  );

  api.put(
    `${ASSIGNMENT}/rubric/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace the rubric; reviews ticking changed items are recomputed (editors, staff)',
        description:
          'Items with an id are changed, items without one added, the others removed (array order is the ' +
          'order). 400 `rubric_item_elsewhere` for an id of another assignment; nothing is saved then.',
        params: AssignmentInCourseParams,
        body: RubricSave,
        response: { 200: Rubric, 400: ErrorBody, ...errors },
      },
    },
    async (request) =>
      saveRubric(ctx, actorOf(request), request.params.id, request.params.assignment_id, request.body),
  );

  api.get(
    `${ASSIGNMENT}/reviews/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The grading queue: each student, the submission to grade and its review (editors, staff)',
        params: AssignmentInCourseParams,
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueue, 400: ErrorBody, ...errors },
      },
    },
    async (request) =>
      getQueue(ctx, actorOf(request), request.params.id, request.params.assignment_id, request.query),
  );

  api.post(
    `${ASSIGNMENT}/reviews/release/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Show the assignment's graded reviews (or all) to the students (editors, staff)",
        params: AssignmentInCourseParams,
        body: ReleaseRequest,
        response: { 200: ReleaseResult, 400: ErrorBody, ...errors },
      },
    },
    async (request) =>
      releaseReviews(
        ctx,
        actorOf(request),
        request.params.id,
        request.params.assignment_id,
        request.body.scope,
      ),
  );

  api.post(
    `${ASSIGNMENT}/reviews/retract/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Hide the assignment's released reviews from the students again (editors, staff)",
        params: AssignmentInCourseParams,
        response: { 200: ReleaseResult, ...errors },
      },
    },
    async (request) => retractReviews(ctx, actorOf(request), request.params.id, request.params.assignment_id),
  );

  api.get(
    '/Submission/:id/review/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "A submission's review with its rubric, comments and regrade requests (editors, staff)",
        params: IdParams,
        response: { 200: Review, ...errors },
      },
    },
    async (request) => getReview(ctx, actorOf(request), request.params.id),
  );

  api.put(
    '/Submission/:id/review/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Save the grading of a submission (editors, staff)',
        description:
          '`version` is the one read (0 before the first save); 409 `review_conflict` when another ' +
          'save came in between, and nothing changes.',
        params: IdParams,
        body: ReviewSave,
        response: { 200: Review, 400: ErrorBody, 409: ErrorBody, ...errors },
      },
    },
    async (request) => saveReview(ctx, actorOf(request), request.params.id, request.body),
  );

  api.get(
    '/Submission/:id/review/audit/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "What was done to a submission's review, newest first (editors, staff)",
        params: IdParams,
        response: { 200: ReviewAuditList, ...errors },
      },
    },
    async (request) => getAudit(ctx, actorOf(request), request.params.id),
  );

  api.get(
    '/Submission/:id/feedback/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "A submission's released grading and comments, as its author sees them",
        description: 'Before release `released` is false and every part empty.',
        params: IdParams,
        response: { 200: StudentFeedback, ...errors },
      },
    },
    async (request) => getFeedback(ctx, actorOf(request), request.params.id),
  );
}
