import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  SimilarityCsvQuery,
  SimilarityPairParams,
  SimilarityPairView,
  SimilarityParams,
  SimilarityReport,
  SimilarityReportList,
  SimilarityReportParams,
  SimilarityReportQuery,
  SimilarityReportSummary,
  SimilarityRequest,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';
import { exportReportCsv, getPairView, getReport, listReports, requestReport } from './similarity.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['similarity'];

/** Similarity reports of an assignment (docs/similarity.md): editors of the course and staff only. */
export function registerSimilarityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/Course/:id/assignments/:assignment_id/similarity/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Compare the students' counted submissions for similarity (editors, staff)",
        description:
          'Queues a report (202): each student’s final submission, else their best graded one, else ' +
          'their latest, compared with Dolos in a background job; starter code and the teacher’s files ' +
          'are boilerplate. `include_course_id` adds another course the caller edits.',
        params: SimilarityParams,
        body: SimilarityRequest,
        response: { 202: SimilarityReportSummary, 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const { id, assignment_id } = request.params;
      const report = await requestReport(
        ctx,
        actorOf(request),
        id,
        assignment_id,
        request.body.include_course_id,
      );
      return reply.code(202).send(report);
    },
  );

  api.get(
    '/Course/:id/assignments/:assignment_id/similarity/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The assignment's latest similarity reports in the course, newest first (editors, staff)",
        params: SimilarityParams,
        response: { 200: SimilarityReportList, ...errors },
      },
    },
    async (request) => listReports(ctx, actorOf(request), request.params.id, request.params.assignment_id),
  );

  api.get(
    '/Similarity/:report_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'A similarity report: pairs at or above the threshold and their clusters (editors, staff)',
        params: SimilarityReportParams,
        querystring: SimilarityReportQuery,
        response: { 200: SimilarityReport, 400: ErrorBody, ...errors },
      },
    },
    async (request) => getReport(ctx, actorOf(request), request.params.report_id, request.query),
  );

  api.get(
    '/Similarity/:report_id/csv/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "A similarity report's pairs as CSV (editors, staff)",
        description:
          'text/csv in UTF-8 with a byte-order mark, most similar first. Columns: similarity, ' +
          'longest_fragment_tokens, longest_fragment_lines, overlap_tokens, then left_ and right_ ' +
          'user_id, email, last_name, first_name, course_id, submission_id.',
        params: SimilarityReportParams,
        querystring: SimilarityCsvQuery,
        // Sent as text/csv, which Fastify never runs through the JSON serializer.
        response: { 200: fileResponse('text/csv', 'The CSV text'), 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const csv = await exportReportCsv(
        ctx,
        actorOf(request),
        request.params.report_id,
        request.query.threshold,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .headers(generatedFileHeaders(csv.contentDisposition))
        .send(csv.body);
    },
  );

  api.get(
    '/Similarity/:report_id/pair/:left/:right/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Two submissions of a report side by side with their matched fragments (editors, staff)',
        description: '`left` and `right` are submission ids of a pair the report kept, in either order.',
        params: SimilarityPairParams,
        response: { 200: SimilarityPairView, ...errors },
      },
    },
    async (request) => {
      const { report_id, left, right } = request.params;
      return getPairView(ctx, actorOf(request), report_id, left, right);
    },
  );
}
