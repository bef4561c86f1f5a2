import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CourseOverview, ErrorBody, IdParams } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as overview from './overview.service.ts';

const errors = { 401: ErrorBody, 404: ErrorBody } as const;

/** `Course/{id}/overview/`: the course home in one call (docs/course-home.md). */
export function registerOverviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/Course/:id/overview/',
    {
      config: { access: 'user' },
      schema: {
        tags: ['courses'],
        summary:
          "The course home: a student's due work, unread news, results and events; what needs an editor (members)",
        params: IdParams,
        response: { 200: CourseOverview, ...errors },
      },
    },
    async (request) => overview.getCourseOverview(ctx, actorOf(request), request.params.id),
  );
}
