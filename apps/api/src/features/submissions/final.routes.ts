import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CsvQuery, FinalSubmission, SelectFinalParams } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { exportCsv } from './csv.service.ts';
import * as finals from './final.service.ts';
import { conflictErrors, errors } from './route-errors.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';

const SELECT_FINAL = '/Submission/SelectFinal/:assignment_id/:course_id/:submission_id/';

export function registerFinalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['submissions'];
  const pathOf = (p: { assignment_id: number; course_id: number; submission_id: number }) => ({
    assignmentId: p.assignment_id,
    courseId: p.course_id,
    submissionId: p.submission_id,
  });

  api.post(
    SELECT_FINAL,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Mark a Completed submission final (its author, or a manager for them)',
        description:
          'Unmarks the author’s other final submission in the same transaction. Not Completed: 409.',
        params: SelectFinalParams,
        response: { 200: FinalSubmission, ...conflictErrors },
      },
    },
    async (request) => ({
      submission: await finals.selectFinal(ctx, actorOf(request), pathOf(request.params)),
    }),
  );

  api.get(
    SELECT_FINAL,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The final submission of that submission’s author (null when none is chosen)',
        params: SelectFinalParams,
        response: { 200: FinalSubmission, ...errors },
      },
    },
    async (request) => ({ submission: await finals.getFinal(ctx, actorOf(request), pathOf(request.params)) }),
  );

  api.get(
    '/Submission/csv/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Every student of the course with their final (or best) submission, as CSV (its managers)',
        description:
          'text/csv in UTF-8 with a byte-order mark; one row per student, including those who never ' +
          'submitted. Columns: student_id, email, last_name, first_name, submission_id, chosen ' +
          '(final|best|none), score, max_score, status, late, submitted_at, graded_at, submissions.',
        querystring: CsvQuery,
        // Sent as text/csv, which Fastify never runs through the JSON serializer.
        response: { 200: fileResponse('text/csv', 'The CSV text'), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await exportCsv(ctx, actorOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .headers(generatedFileHeaders(csv.contentDisposition))
        .send(csv.body);
    },
  );
}
