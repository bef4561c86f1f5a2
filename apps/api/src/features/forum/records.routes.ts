import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  ForumAnnouncementRequest,
  ForumIdParams,
  ForumRecord,
  ForumRecordCreate,
  ForumRecordReplace,
  ForumRecordUpdate,
  ForumUpvoteState,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as records from './records.service.ts';
import { setUpvote } from './state.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['forum'];

/** `Forum/Record/` and `Forum/Record/{id}/…`: writing, reading, converting and upvoting posts. */
export function registerForumRecordRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const record = (summary: string) => ({
    config: { access: 'user' as const },
    schema: { tags, summary, params: ForumIdParams, response: { 200: ForumRecord, ...errors } },
  });

  api.post(
    '/Forum/Record/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Post a topic, or with parent_record a comment (members; announcements: editors and staff)',
        body: ForumRecordCreate,
        response: { 201: ForumRecord, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await records.createRecord(ctx, actorOf(request), request.body)),
  );

  api.get('/Forum/Record/:id/', record('One post (members who can see it)'), async (request) =>
    records.getRecord(ctx, actorOf(request), request.params.id),
  );

  const withBody = <B extends z.ZodType>(summary: string, body: B) => ({
    config: { access: 'user' as const },
    schema: { tags, summary, params: ForumIdParams, body, response: { 200: ForumRecord, ...errors } },
  });

  api.put(
    '/Forum/Record/:id/',
    withBody('Replace a post (its author, editors of the course, staff)', ForumRecordReplace),
    async (request) => records.updateRecord(ctx, actorOf(request), request.params.id, request.body),
  );

  api.patch(
    '/Forum/Record/:id/',
    withBody('Change some fields of a post (its author, editors of the course, staff)', ForumRecordUpdate),
    async (request) => records.updateRecord(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/Forum/Record/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a post; a topic takes its comments with it (its author, editors, staff)',
        params: ForumIdParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await records.deleteRecord(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.put(
    '/Forum/Record/:id/announcement/',
    withBody(
      'Make a topic an announcement, optionally pinned or scheduled (editors of the course, staff)',
      ForumAnnouncementRequest,
    ),
    async (request) => records.makeAnnouncement(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/Forum/Record/:id/announcement/',
    record('Make an announcement a discussion again (editors and staff)'),
    async (request) => records.takeBackAnnouncement(ctx, actorOf(request), request.params.id),
  );

  const upvote = (summary: string) => ({
    config: { access: 'user' as const },
    schema: { tags, summary, params: ForumIdParams, response: { 200: ForumUpvoteState, ...errors } },
  });
  api.put('/Forum/Record/:id/upvote/', upvote('Upvote a post (idempotent)'), async (request) =>
    setUpvote(ctx, actorOf(request), request.params.id, true),
  );
  api.delete('/Forum/Record/:id/upvote/', upvote('Take back an upvote (idempotent)'), async (request) =>
    setUpvote(ctx, actorOf(request), request.params.id, false),
  );
}
