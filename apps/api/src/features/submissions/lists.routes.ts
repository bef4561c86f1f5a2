import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IdParams,
  SubmissionCourseListQuery,
  SubmissionCourseParams,
  SubmissionCourseUserParams,
  SubmissionDetail,
  SubmissionList,
  SubmissionListQueryWithReference,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as lists from './lists.service.ts';
import { errors } from './route-errors.ts';

export function registerSubmissionListRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['submissions'];

  api.get(
    '/Submission/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Submissions the caller may see (own; all of the courses they edit; staff: all)',
        description:
          'Reference runs are never listed unless a manager asks for them with `is_reference=true`. For ' +
          'deep pages pass the `next_cursor` of the previous page as `cursor` (ordering -created_at).',
        querystring: SubmissionListQueryWithReference,
        response: { 200: SubmissionList, ...errors },
      },
    },
    async (request) => lists.listSubmissions(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Submission/by-course/course/:course_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Submissions of a course: every one for its managers, their own for students',
        params: SubmissionCourseParams,
        querystring: SubmissionCourseListQuery,
        response: { 200: SubmissionList, ...errors },
      },
    },
    async (request) =>
      lists.listCourseSubmissions(ctx, actorOf(request), request.params.course_id, undefined, request.query),
  );

  api.get(
    '/Submission/by-course/course/:course_id/user/:user_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One user’s submissions in a course (managers; a student only their own, else 404)',
        params: SubmissionCourseUserParams,
        querystring: SubmissionCourseListQuery,
        response: { 200: SubmissionList, ...errors },
      },
    },
    async (request) =>
      lists.listCourseSubmissions(
        ctx,
        actorOf(request),
        request.params.course_id,
        request.params.user_id,
        request.query,
      ),
  );

  api.get(
    '/Submission/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One submission with its files and per-test results (as visibility allows)',
        params: IdParams,
        response: { 200: SubmissionDetail, ...errors },
      },
    },
    async (request) => lists.getSubmissionDetail(ctx, actorOf(request), request.params.id),
  );
}
