import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Gradebook, IdParams } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { contentDisposition, generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';
import { getGradebook, gradebookCsv } from './gradebook.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['assessment'];

/** The course gradebook and its CSV (docs/assessment.md, "Gradebook"). */
export function registerGradebookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/Course/:id/gradebook/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'Every student against every assignment and quiz, with late and missing work (editors, staff)',
        params: IdParams,
        response: { 200: Gradebook, ...errors },
      },
    },
    async (request) => getGradebook(ctx, actorOf(request), request.params.id),
  );

  api.get(
    '/Course/:id/gradebook/csv/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The gradebook as CSV for spreadsheets (editors, staff)',
        description:
          'text/csv in UTF-8 with a byte-order mark and CRLF line ends, as Excel opens it. Columns: ' +
          'student_id, email, last_name, first_name, one score per assignment and quiz (empty when none), ' +
          'total, late, missing.',
        params: IdParams,
        // Sent as text/csv, which Fastify never runs through the JSON serializer.
        response: { 200: fileResponse('text/csv', 'The CSV text'), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await gradebookCsv(ctx, actorOf(request), request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .headers(generatedFileHeaders(contentDisposition(csv.filename, 'attachment')))
        .send(csv.body);
    },
  );
}
