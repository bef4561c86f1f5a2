import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  ForumFile,
  ForumIdParams,
  ForumSignedUrl,
  ForumSignedUrlQuery,
  MAX_FORUM_FILE_BYTES,
  MAX_FORUM_FILES_PER_POST,
  MAX_FORUM_PENDING_FILES,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { formatBytes } from '../../lib/uploads.ts';
import * as files from './files.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const UPLOAD_PATH = '/Forum/ForumFileUpload/:id/';

/** Attachments of forum posts: upload into the editor's tray, delete, and short-lived download URLs. */
export function registerForumFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['forum'];

  api.post(
    UPLOAD_PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Upload files for a post of the course {id} (multipart/form-data, field `file`; members)',
        description:
          `At most ${formatBytes(MAX_FORUM_FILE_BYTES)} per file (413) and ${MAX_FORUM_FILES_PER_POST} ` +
          `files per request or per post (400). Files wait in the caller's tray (at most ` +
          `${MAX_FORUM_PENDING_FILES} per course) until a post lists them in \`attachments\`; tray files ` +
          'never attached are deleted after a day. The optional form field `record` (a post the caller ' +
          'may edit) attaches them to that post at once.',
        consumes: ['multipart/form-data'],
        params: ForumIdParams,
        response: { 201: z.array(ForumFile), 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await files.uploadFiles(ctx, actorOf(request), request.params.id, request)),
  );

  api.delete(
    UPLOAD_PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete the uploaded file {id} (its uploader, editors of the course, staff)',
        params: ForumIdParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await files.deleteFile(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/Forum/ForumSignedURL/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'A short-lived download URL of an attached file (members who can see its post)',
        querystring: ForumSignedUrlQuery,
        response: { 200: ForumSignedUrl, ...errors },
      },
    },
    async (request) => files.signFile(ctx, actorOf(request), request.query.file),
  );
}
