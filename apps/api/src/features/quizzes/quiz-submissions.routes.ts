import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IdParams,
  PageQuery,
  QuizSubmission,
  QuizSubmissionByQuizCourseQuery,
  QuizSubmissionCourseParams,
  QuizSubmissionCourseUserParams,
  QuizSubmissionCreate,
  QuizSubmissionDetail,
  QuizSubmissionList,
  QuizSubmissionListQuery,
  SubmitQuizRequest,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as submissions from './quiz-submissions.service.ts';
import { conflictErrors, errors } from './route-errors.ts';
import * as take from './take.service.ts';

export function registerQuizSubmissionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quizzes'];

  api.post(
    '/quiz-submissions/create/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Start the caller’s attempt (students of the course); the time limit counts from here',
        description:
          '201 with the new attempt; 200 with the attempt already in progress; 409 `already_submitted` ' +
          'after a submission; 403 `quiz_not_open` / `quiz_closed` outside the window; 403 for editors ' +
          'and staff, who preview through QuizContent.',
        body: QuizSubmissionCreate,
        response: { 200: QuizSubmission, 201: QuizSubmission, ...conflictErrors },
      },
    },
    async (request, reply) => {
      const { created, submission } = await take.startAttempt(ctx, actorOf(request), request.body);
      return reply.code(created ? 201 : 200).send(submission);
    },
  );

  api.post(
    '/Submission/SubmitQuiz/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Hand in the answers: once per student and quiz course, scored at once',
        description:
          'Every question needs an answer of its kind: 400 `unanswered` ("Please answer all questions ' +
          'before submitting.", the question ids in `unanswered`), 400 `invalid` naming the question for a ' +
          'wrong shape or a question of another quiz. 409 `already_submitted` ("Only allow submitting ' +
          'once.") for a second submission, also when two are sent at once. 403 `quiz_not_open` before ' +
          'opening, `quiz_closed` / `time_limit_exceeded` after the deadline plus the grace period.',
        body: SubmitQuizRequest,
        response: { 201: QuizSubmissionDetail, ...conflictErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await take.submitQuiz(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/QuizSubmission/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Quiz submissions the caller may see (own; all of the courses they edit; staff: all)',
        querystring: QuizSubmissionByQuizCourseQuery,
        response: { 200: QuizSubmissionList, ...errors },
      },
    },
    async (request) => submissions.listSubmissions(ctx, actorOf(request), request.query),
  );

  api.get(
    '/QuizSubmission/by-course/course/:course_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Quiz submissions of a course: every one for its editors and staff, their own for students',
        params: QuizSubmissionCourseParams,
        querystring: PageQuery,
        response: { 200: QuizSubmissionList, ...errors },
      },
    },
    async (request) =>
      submissions.listCourseSubmissions(
        ctx,
        actorOf(request),
        request.params.course_id,
        undefined,
        request.query,
      ),
  );

  api.get(
    '/QuizSubmission/by-course/course/:course_id/user/:user_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'One user’s quiz submissions in a course (editors, staff; a student only their own, else 404)',
        params: QuizSubmissionCourseUserParams,
        querystring: PageQuery,
        response: { 200: QuizSubmissionList, ...errors },
      },
    },
    async (request) =>
      submissions.listCourseSubmissions(
        ctx,
        actorOf(request),
        request.params.course_id,
        request.params.user_id,
        request.query,
      ),
  );

  api.get(
    '/QuizSubmission/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One quiz submission with its answers (scores and keys as visibility allows)',
        params: IdParams,
        response: { 200: QuizSubmissionDetail, ...errors },
      },
    },
    async (request) => submissions.getSubmissionDetail(ctx, actorOf(request), request.params.id),
  );

  api.get(
    '/quiz-submissions/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Quiz submissions the caller may see, by course, author (`created_by`), quiz, quiz course',
        querystring: QuizSubmissionListQuery,
        response: { 200: QuizSubmissionList, ...errors },
      },
    },
    async (request) => submissions.listSubmissions(ctx, actorOf(request), request.query),
  );

  api.get(
    '/quiz-submissions/:id',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One quiz submission with its answers (as `QuizSubmission/{id}/`)',
        params: IdParams,
        response: { 200: QuizSubmissionDetail, ...errors },
      },
    },
    async (request) => submissions.getSubmissionDetail(ctx, actorOf(request), request.params.id),
  );
}
