import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParams,
  Quiz,
  QuizContent,
  QuizContentQuery,
  QuizCourseSpecificQuery,
  QuizCreate,
  QuizInCourse,
  QuizInCourseList,
  QuizList,
  QuizListQuery,
  QuizReplace,
  QuizUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { conflictErrors, errors } from './route-errors.ts';
import * as content from './quiz-content.service.ts';
import { registerQuizCourseRoutes } from './quiz-courses.routes.ts';
import { registerQuizSubmissionRoutes } from './quiz-submissions.routes.ts';
import * as quizzes from './quizzes.service.ts';

/** Every route of quizzes, quiz courses, attempts, submissions and results (docs/quizzes.md). */
export function registerQuizRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerQuizItselfRoutes(app, ctx);
  registerQuizCourseRoutes(app, ctx);
  registerQuizSubmissionRoutes(app, ctx);
}

function registerQuizItselfRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quizzes'];

  for (const path of ['/Quiz/', '/quizzes/']) {
    api.get(
      path,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Quizzes the caller may see (students: those given to their courses, upcoming included)',
          description:
            '`courses`: comma-separated course ids. `search`: in the title. Managers get the editor view ' +
            '(questions with their keys), everyone else the student view.',
          querystring: QuizListQuery,
          response: { 200: QuizList, ...errors },
        },
      },
      async (request) => quizzes.listQuizzes(ctx, actorOf(request), request.query),
    );

    api.get(
      `${path}:id/`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'One quiz (editor view with questions and keys for its managers, student view otherwise)',
          params: IdParams,
          response: { 200: Quiz, ...errors },
        },
      },
      async (request) => quizzes.getQuiz(ctx, actorOf(request), request.params.id),
    );
  }

  api.post(
    '/Quiz/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Create a quiz with its questions in courses the caller edits',
        body: QuizCreate,
        response: { 201: Quiz, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await quizzes.createQuiz(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/Quiz/CourseSpecific/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "One course's quizzes with the caller's own attempt (editors: submitted_students too)",
        querystring: QuizCourseSpecificQuery,
        response: { 200: QuizInCourseList, ...errors },
      },
    },
    async (request) => content.listCourseQuizzes(ctx, actorOf(request), request.query),
  );

  const change = {
    config: { access: 'user' as const },
    schema: { tags, params: IdParams, response: { 200: Quiz, ...conflictErrors } },
  };
  api.put(
    '/Quiz/:id/',
    {
      ...change,
      schema: {
        ...change.schema,
        summary: 'Replace title, description and questions (managers; questions: 409 once anyone started)',
        body: QuizReplace,
      },
    },
    async (request) => quizzes.updateQuiz(ctx, actorOf(request), request.params.id, request.body),
  );
  api.patch(
    '/Quiz/:id/',
    {
      ...change,
      schema: {
        ...change.schema,
        summary:
          'Change some of title, description, questions (managers; questions: 409 once anyone started)',
        body: QuizUpdate,
      },
    },
    async (request) => quizzes.updateQuiz(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/Quiz/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a quiz (managers; once students started it: staff only)',
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), ...conflictErrors },
      },
    },
    async (request, reply) => {
      await quizzes.deleteQuiz(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/Quiz/:id/CourseSpecificDetail/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The quiz in one course: its window, the caller’s attempt, what is visible',
        params: IdParams,
        querystring: QuizContentQuery,
        response: { 200: QuizInCourse, ...errors },
      },
    },
    async (request) =>
      content.getCourseDetail(ctx, actorOf(request), request.params.id, request.query.course_id),
  );

  api.get(
    '/Quiz/:id/QuizContent/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The questions, shaped for the caller and the moment',
        description:
          'Managers: `editor` views (keys included). Students: `student` views (no keys; options shuffled ' +
          'per student when asked) while the quiz is open — 403 `quiz_not_open` before, and for a timed ' +
          'quiz 403 `quiz_not_started` until they start it (`POST quiz-submissions/create/`) and ' +
          '`time_limit_exceeded` after their time; after closing or after their submission `review` views ' +
          '(keys and explanations) once `answers_visible_at` has passed and only if they submitted, else ' +
          '403 `answers_not_visible`.',
        params: IdParams,
        querystring: QuizContentQuery,
        response: { 200: QuizContent, ...errors },
      },
    },
    async (request) =>
      content.getQuizContent(ctx, actorOf(request), request.params.id, request.query.course_id),
  );
}
