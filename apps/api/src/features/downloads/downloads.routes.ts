import type { FastifyInstance } from 'fastify';
import { DownloadParams, ErrorBody } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { contentTypeOf, downloadHeaders, verifyDownload } from '../../lib/downloads.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { StorageNotFoundError } from '../../lib/storage.ts';
import { findSubmissionFileContent } from './downloads.repo.ts';

const expired = () =>
  new HttpError(410, 'link_expired', 'This download link has expired. Reload the page to get a new one.');

/**
 * `GET /api/Download/{token}`: the token is the credential (signed, short-lived, made by the routes that
 * list files for callers allowed to see them), so the route is public and works as a plain link.
 */
export function registerDownloadRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Not the zod type provider: the reply is bytes, which no response schema describes.
  app.get(
    '/Download/:token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['files'],
        summary: 'Download a file through a signed link (always as an attachment)',
        security: [],
        params: DownloadParams,
        response: { 404: ErrorBody, 410: ErrorBody },
      },
    },
    async (request, reply) => {
      const { token } = DownloadParams.parse(request.params);
      const check = verifyDownload(ctx.config, token);
      if (!check.ok) throw check.reason === 'expired' ? expired() : notFound();
      const { ref } = check;
      // A video's token streams through /api/VideoFile/ only.
      if (ref.kind === 'video_file') throw notFound();
      if (ref.kind === 'submission_file') {
        const file = await findSubmissionFileContent(ctx.db, ref.id);
        if (!file) throw notFound();
        return reply
          .headers(downloadHeaders(file.filename, contentTypeOf(file.filename)))
          .header('content-length', file.content.length)
          .send(file.content);
      }
      try {
        const stream = await ctx.storage.get(ref.key);
        return reply.headers(downloadHeaders(ref.filename, ref.contentType)).send(stream);
      } catch (error) {
        if (error instanceof StorageNotFoundError) throw notFound();
        throw error;
      }
    },
  );
}
