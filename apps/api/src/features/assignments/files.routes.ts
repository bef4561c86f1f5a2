import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AssignmentFileList,
  AssignmentFileParams,
  ErrorBody,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  TestCaseParams,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { formatBytes } from '../../lib/uploads.ts';
import { errors } from './assignments.routes.ts';
import * as files from './files.service.ts';

const PATH = '/Assignment/:assignment_id/:course_id/FileUpload/';

export function registerAssignmentFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['assignments'];

  api.get(
    PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The files attached to an assignment, with short-lived download URLs',
        params: TestCaseParams,
        response: { 200: AssignmentFileList, ...errors },
      },
    },
    async (request) =>
      files.listAttachments(ctx, actorOf(request), request.params.assignment_id, request.params.course_id),
  );

  api.post(
    PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Attach files (multipart/form-data, one or more files; its managers)',
        description:
          `At most ${formatBytes(MAX_ATTACHMENT_BYTES)} per file (413) and ${MAX_ATTACHMENTS} files per ` +
          'assignment (400). A name already attached answers 409.',
        consumes: ['multipart/form-data'],
        params: TestCaseParams,
        response: { 201: AssignmentFileList, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await files.uploadAttachments(
            ctx,
            actorOf(request),
            request.params.assignment_id,
            request.params.course_id,
            request,
          ),
        ),
  );

  api.delete(
    `${PATH}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Remove an attached file (its managers)',
        params: AssignmentFileParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      const { assignment_id, course_id, id } = request.params;
      await files.deleteAttachment(ctx, actorOf(request), assignment_id, course_id, id);
      return reply.code(204).send(null);
    },
  );
}
