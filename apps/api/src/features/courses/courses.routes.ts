import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Course,
  CourseCreate,
  CourseList,
  CourseListQuery,
  CourseReplace,
  CourseUpdate,
  ErrorBody,
  IdParams,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as courses from './courses.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;

export function toCourse(course: courses.CourseForActor): Course {
  return {
    id: course.id,
    title: course.title,
    description: course.description,
    has_videos: course.hasVideos,
    has_assessment: course.hasAssessment,
    time_zone: course.timeZone,
    created_at: course.createdAt.toISOString(),
    updated_at: course.updatedAt.toISOString(),
    my_role: course.myRole,
    editor_count: course.editorCount,
    student_count: course.studentCount,
  };
}

export function registerCourseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['courses'];

  api.get(
    '/Course/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Courses the caller may see: every course for staff, their own for others',
        querystring: CourseListQuery,
        response: { 200: CourseList, ...errors },
      },
    },
    async (request) => {
      const { count, rows } = await courses.listCourses(ctx, actorOf(request), request.query);
      return { count, limit: request.query.limit, offset: request.query.offset, results: rows.map(toCourse) };
    },
  );

  api.post(
    '/Course/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Create a course (staff)',
        body: CourseCreate,
        response: { 201: Course, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(toCourse(await courses.createCourse(ctx, actorOf(request), request.body))),
  );

  api.get(
    '/Course/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One course (its members and staff)',
        params: IdParams,
        response: { 200: Course, ...errors },
      },
    },
    async (request) => toCourse(await courses.getCourse(ctx, actorOf(request), request.params.id)),
  );

  api.put(
    '/Course/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace a course (its editors and staff)',
        params: IdParams,
        body: CourseReplace,
        response: { 200: Course, ...errors },
      },
    },
    async (request) =>
      toCourse(await courses.updateCourse(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.patch(
    '/Course/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change some fields of a course (its editors and staff)',
        params: IdParams,
        body: CourseUpdate,
        response: { 200: Course, ...errors },
      },
    },
    async (request) =>
      toCourse(await courses.updateCourse(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.delete(
    '/Course/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a course with its memberships (staff)',
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await courses.deleteCourse(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
