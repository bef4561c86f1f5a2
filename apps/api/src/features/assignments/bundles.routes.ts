import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  Assignment,
  AssignmentBundleParams,
  BundleImportParams,
  ErrorBody,
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_UNCOMPRESSED_BYTES,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';
import { formatBytes } from '../../lib/uploads.ts';
import { errors } from './assignments.routes.ts';
import * as bundles from './bundles.service.ts';

export function registerAssignmentBundleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['assignments'];

  // Not the zod type provider: the reply is bytes, which no response schema describes.
  app.get(
    '/Assignment/:assignment_id/:course_id/export/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The assignment as a .zip bundle: statement, code, attachments, test cases (its managers)',
        params: AssignmentBundleParams,
        response: { 200: fileResponse('application/zip', 'The .zip bundle'), ...errors },
      },
    },
    async (request, reply) => {
      const { assignment_id, course_id } = AssignmentBundleParams.parse(request.params);
      const file = await bundles.exportBundle(ctx, actorOf(request), assignment_id, course_id);
      return reply
        .type('application/zip')
        .headers(generatedFileHeaders(file.contentDisposition))
        .send(file.body);
    },
  );

  api.post(
    '/Assignment/import/:course_id/',
    {
      config: { access: 'user', longRunning: true },
      schema: {
        tags,
        summary: 'Create an assignment from a .zip bundle in a course the caller edits',
        description:
          'multipart/form-data: one file part (the .zip, at most ' +
          `${formatBytes(MAX_BUNDLE_BYTES)}, 413 over it) and optional text fields opens_at, due_at, ` +
          'late_until (ISO 8601; default: opens now, due seven days later at 23:59 UTC, no late period). ' +
          `A bad bundle (unsafe or unknown entry, over ${formatBytes(MAX_BUNDLE_UNCOMPRESSED_BYTES)} ` +
          'inflated, over a limit, failing a schema) answers 400 `invalid_bundle` naming the entry; ' +
          'nothing is created.',
        consumes: ['multipart/form-data'],
        params: BundleImportParams,
        response: { 201: Assignment, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await bundles.importBundle(ctx, actorOf(request), request.params.course_id, request)),
  );
}
