import type { FastifyInstance } from 'fastify';
import { DownloadParams, ErrorBody } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { downloadHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';
import { openDownload } from './downloads.service.ts';

/**
 * `GET /api/Download/{token}`: the token is the credential (signed, short-lived, made by the routes that
 * list files for callers allowed to see them), so the route is public and works as a plain link.
 */
export function registerDownloadRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Not the zod type provider: the reply is bytes, never serialised (its 200 only documents them).
  app.get(
    '/Download/:token',
    {
      config: { access: 'public', longRunning: true },
      // Stored bytes go out as they are, with their Content-Length (lib/compression.ts).
      compress: false,
      schema: {
        tags: ['files'],
        summary: 'Download a file through a signed link (always as an attachment)',
        security: [],
        params: DownloadParams,
        // The file's bytes (a Buffer or a stream, which Fastify sends as they are), with its own type.
        response: {
          200: fileResponse('*/*', "The file, as an attachment with the file's own media type"),
          404: ErrorBody,
          410: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { token } = DownloadParams.parse(request.params);
      const file = await openDownload(ctx, token);
      reply.headers(downloadHeaders(file.filename, file.contentType));
      if (Buffer.isBuffer(file.content)) reply.header('content-length', file.content.length);
      return reply.send(file.content);
    },
  );
}
