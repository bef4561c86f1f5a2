import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParams,
  QuizCourse,
  QuizCourseCreate,
  QuizCourseList,
  QuizCourseListQuery,
  QuizCourseUpdate,
  QuizResults,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { conflictErrors, errors } from './route-errors.ts';
import * as quizCourses from './quiz-courses.service.ts';
import * as results from './results.service.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';

export function registerQuizCourseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quizzes'];

  api.get(
    '/quiz-courses/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'Quizzes given to courses: of the caller’s courses and of the quizzes they manage (staff: all)',
        querystring: QuizCourseListQuery,
        response: { 200: QuizCourseList, ...errors },
      },
    },
    async (request) => quizCourses.listQuizCourses(ctx, actorOf(request), request.query),
  );

  api.post(
    '/quiz-courses/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Give a quiz the caller manages to a course they edit (409 when it is already given there)',
        body: QuizCourseCreate,
        response: { 201: QuizCourse, ...conflictErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await quizCourses.createQuizCourse(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/quiz-courses/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One quiz course (who sees the quiz in that course)',
        params: IdParams,
        response: { 200: QuizCourse, ...errors },
      },
    },
    async (request) => quizCourses.getQuizCourse(ctx, actorOf(request), request.params.id),
  );

  api.patch(
    '/quiz-courses/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change the window, time limit or visibility dates (editors of the course, staff)',
        params: IdParams,
        body: QuizCourseUpdate,
        response: { 200: QuizCourse, ...errors },
      },
    },
    async (request) => quizCourses.updateQuizCourse(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/quiz-courses/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Take the quiz out of the course (editors of the course; once started there: staff only)',
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), ...conflictErrors },
      },
    },
    async (request, reply) => {
      await quizCourses.deleteQuizCourse(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/quiz-courses/:id/results/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'Results per student and per question: mean, facility index, options chosen (editors, staff)',
        params: IdParams,
        response: { 200: QuizResults, ...errors },
      },
    },
    async (request) => results.getResults(ctx, actorOf(request), request.params.id),
  );

  api.get(
    '/quiz-courses/:id/results/csv/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The results as CSV (editors of the course, staff)',
        description:
          'text/csv in UTF-8 with a byte-order mark; one row per student of the course, submitted or not. ' +
          `Columns: ${results.RESULTS_CSV_HEADER.join(', ')}, then q1, q2, … (points per question).`,
        params: IdParams,
        // Sent as text/csv, which Fastify never runs through the JSON serializer.
        response: { 200: fileResponse('text/csv', 'The CSV text'), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await results.exportResultsCsv(ctx, actorOf(request), request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .headers(generatedFileHeaders(csv.contentDisposition))
        .send(csv.body);
    },
  );
}
