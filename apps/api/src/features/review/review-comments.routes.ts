import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CommentCreate,
  CommentEdit,
  CommentReply,
  ErrorBody,
  IdParams,
  RegradeAnswer,
  RegradeAsk,
  RegradeList,
  RegradeListQuery,
  RegradeRequest,
  ReviewComment,
  SavedComment,
  SavedCommentList,
  SavedCommentSave,
} from '@kadai/contracts';
import { z } from 'zod';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { addComment, deleteComment, editComment, replyToComment } from './comments.service.ts';
import { answerRegrade, askRegrade, listCourseRegrades } from './regrades.service.ts';
import {
  createSavedComment,
  deleteSavedComment,
  listSavedComments,
  updateSavedComment,
} from './saved-comments.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['review'];
const deleted = z.null().describe('Deleted');

/** Comments on lines, saved comments and regrade requests (docs/review.md). */
export function registerReviewCommentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/Submission/:id/comments/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Comment on lines of a submitted file (editors, staff)',
        description:
          '400 `line_out_of_range` when the lines are not within the file; `saved_comment_id` counts one ' +
          'use of that saved comment.',
        params: IdParams,
        body: CommentCreate,
        response: { 201: ReviewComment, 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addComment(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.post(
    '/ReviewComment/:id/replies/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Reply in a comment's thread (editors; the author once released)",
        params: IdParams,
        body: CommentReply,
        response: { 201: ReviewComment, 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await replyToComment(ctx, actorOf(request), request.params.id, request.body.body)),
  );

  api.put(
    '/ReviewComment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change the text of your comment',
        params: IdParams,
        body: CommentEdit,
        response: { 200: ReviewComment, 400: ErrorBody, ...errors },
      },
    },
    async (request) => editComment(ctx, actorOf(request), request.params.id, request.body.body),
  );

  api.delete(
    '/ReviewComment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a comment and, for the first of a thread, its replies (its author, editors)',
        params: IdParams,
        response: { 204: deleted, ...errors },
      },
    },
    async (request, reply) => {
      await deleteComment(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/Course/:id/saved-comments/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The course's saved comments by title, with their uses (editors, staff)",
        params: IdParams,
        response: { 200: SavedCommentList, ...errors },
      },
    },
    async (request) => listSavedComments(ctx, actorOf(request), request.params.id),
  );

  api.post(
    '/Course/:id/saved-comments/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Save a comment to insert again (editors, staff)',
        params: IdParams,
        body: SavedCommentSave,
        response: { 201: SavedComment, 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSavedComment(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.put(
    '/SavedComment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change a saved comment (editors, staff)',
        params: IdParams,
        body: SavedCommentSave,
        response: { 200: SavedComment, 400: ErrorBody, ...errors },
      },
    },
    async (request) => updateSavedComment(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/SavedComment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a saved comment; comments made with it stay (editors, staff)',
        params: IdParams,
        response: { 204: deleted, ...errors },
      },
    },
    async (request, reply) => {
      await deleteSavedComment(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/Submission/:id/regrade-requests/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Ask for a regrade of a rubric item or a comment thread (the author, after release)',
        description:
          'Once per item and per thread: 409 `regrade_already_asked` after that; 403 ' +
          '`review_not_released` before release.',
        params: IdParams,
        body: RegradeAsk,
        response: { 201: RegradeRequest, 400: ErrorBody, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await askRegrade(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.get(
    '/Course/:id/regrade-requests/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The course's regrade requests, oldest first (editors, staff)",
        params: IdParams,
        querystring: RegradeListQuery,
        response: { 200: RegradeList, 400: ErrorBody, ...errors },
      },
    },
    async (request) => listCourseRegrades(ctx, actorOf(request), request.params.id, request.query),
  );

  api.post(
    '/RegradeRequest/:id/answer/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Answer a regrade request (editors, staff)',
        params: IdParams,
        body: RegradeAnswer,
        response: { 200: RegradeRequest, 400: ErrorBody, ...errors },
      },
    },
    async (request) => answerRegrade(ctx, actorOf(request), request.params.id, request.body.answer),
  );
}
