import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  ForumAnnouncementListQuery,
  ForumCommentList,
  ForumCommentListQuery,
  ForumFinalizeResult,
  ForumForumIdParams,
  ForumRecordList,
  ForumRecordListQuery,
  ForumTemplateList,
  ForumTemplatesQuery,
  ForumUpvoteUsers,
  ForumUserStatus,
  ForumUserStatusUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as lists from './lists.service.ts';
import { checkFinalizeCredentials, publishDueAnnouncements } from './publish.ts';
import { registerForumRecordRoutes } from './records.routes.ts';
import { listUpvoters, setUserStatus } from './state.service.ts';
import { listTemplates } from './templates.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['forum'];

/** The course forum's calls (docs/forum.md); attachments are registered by files.routes.ts. */
export function registerForumRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  registerForumRecordRoutes(app, ctx);

  api.get(
    '/Forum/Record/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Published topics of a course, pinned first; search, filters, keyset pages (members)',
        querystring: ForumRecordListQuery,
        response: { 200: ForumRecordList, ...errors },
      },
    },
    async (request) => lists.listRecords(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Forum/Record/announcements/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Announcements of a course; scheduled_ones=true: the waiting ones (editors and staff)',
        querystring: ForumAnnouncementListQuery,
        response: { 200: ForumRecordList, ...errors },
      },
    },
    async (request) => lists.listAnnouncements(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Forum/Comment/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Comments of a topic, oldest first by default (members who can see the topic)',
        querystring: ForumCommentListQuery,
        response: { 200: ForumCommentList, ...errors },
      },
    },
    async (request) => lists.listComments(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Forum/ForumUpvoteUsers/:forum_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Who upvoted a post, newest first (members who can see it)',
        params: ForumForumIdParams,
        response: { 200: ForumUpvoteUsers, ...errors },
      },
    },
    async (request) => listUpvoters(ctx, actorOf(request), request.params.forum_id),
  );

  api.put(
    '/Forum/ForumUserStatus/:forum_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Mark a topic read or unread for the caller; answers the unread count after',
        params: ForumForumIdParams,
        body: ForumUserStatusUpdate,
        response: { 200: ForumUserStatus, ...errors },
      },
    },
    async (request) => setUserStatus(ctx, actorOf(request), request.params.forum_id, request.body.is_read),
  );

  api.get(
    '/Forum/Templates/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Starting points for a new post in the asked or the caller's language (members)",
        querystring: ForumTemplatesQuery,
        response: { 200: ForumTemplateList, ...errors },
      },
    },
    async (request) => listTemplates(ctx, actorOf(request), request.query),
  );

  api.post(
    '/Forum/scheduled-announcements/finalize',
    {
      // Called by an outside scheduler with HTTP Basic credentials from configuration, not a user token.
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Publish every scheduled announcement whose time has come (HTTP Basic; 404 when not configured)',
        response: { 200: ForumFinalizeResult, ...errors },
      },
    },
    async (request) => {
      checkFinalizeCredentials(ctx.config, request.headers.authorization);
      return publishDueAnnouncements(ctx);
    },
  );
}
