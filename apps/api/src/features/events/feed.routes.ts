import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CalendarFeed, CalendarFileParams, ErrorBody } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';
import * as feed from './feed.service.ts';

/** Calendar apps may keep a copy this long; `private`: no shared cache may, the URL being a secret. */
export const FEED_MAX_AGE_SECONDS = 300;

/** The caller's private calendar feed URL, its reset, and the feed itself (`/api/calendar/<token>.ics`). */
export function registerFeedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['calendar'];

  api.get(
    '/Calendar/feed/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The caller's private calendar feed URL (iCalendar), made on first use",
        response: { 200: CalendarFeed, 401: ErrorBody },
      },
    },
    async (request) => feed.getFeed(ctx, actorOf(request)),
  );

  api.post(
    '/Calendar/feed/reset/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'A new feed URL; the old one stops working at once',
        response: { 200: CalendarFeed, 401: ErrorBody },
      },
    },
    async (request) => feed.resetFeed(ctx, actorOf(request)),
  );

  // The token in the path is the credential: calendar apps fetch it with no bearer header. Not the zod
  // type provider: the reply is iCalendar text, never serialised (its 200 only documents it).
  app.get(
    '/calendar/:file',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The iCalendar feed (RFC 5545) of a feed URL; unknown or reset tokens are 404',
        security: [],
        params: CalendarFileParams,
        // Text with a content type of its own, which Fastify sends as it is (never serialised).
        response: {
          200: fileResponse(
            'text/calendar',
            'The iCalendar file (RFC 5545) of the courses of the feed’s owner',
          ),
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { file } = CalendarFileParams.parse(request.params);
      const body = await feed.renderFeed(ctx, file);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', contentDisposition('calendar.ics', 'inline'))
        .header('cache-control', `private, max-age=${FEED_MAX_AGE_SECONDS}`)
        .header('x-robots-tag', 'noindex, nofollow')
        .send(body);
    },
  );
}
