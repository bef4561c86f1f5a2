import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DownloadParams, ErrorBody, VIDEO_FILE_TYPES, Video, VideoUploadQuery } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { contentDisposition, verifyDownload } from '../../lib/downloads.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { fileResponse } from '../../lib/openapi.ts';
import { StorageNotFoundError } from '../../lib/storage.ts';
import { uploadVideo } from './files.service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
} as const;

/** The media types a stream is sent with: the uploaded file's own. */
const VIDEO_TYPES = [...new Set(Object.values(VIDEO_FILE_TYPES))];

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; null for none, 'invalid' when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

/** Uploading a lecture video file, and streaming it back (inline, by ranges) through a signed address. */
export function registerVideoFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/vimeo-videos/upload',
    {
      config: { access: 'user', longRunning: true },
      bodyLimit: ctx.config.VIDEO_MAX_UPLOAD_MB * 1024 * 1024 + 1024 * 1024,
      schema: {
        tags: ['videos'],
        summary: 'Upload a lecture video file to the course (editors of the course, staff)',
        description:
          'multipart/form-data: the fields `name`, `duration` (seconds) and `description`, then one `file` ' +
          '(.mp4, .m4v, .webm or .ogv, up to VIDEO_MAX_UPLOAD_MB).',
        consumes: ['multipart/form-data'],
        querystring: VideoUploadQuery,
        response: { 201: Video, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await uploadVideo(ctx, actorOf(request), request.query.course, request)),
  );

  // Not the zod type provider: the reply is bytes.
  app.get(
    '/VideoFile/:token',
    {
      config: { access: 'public', longRunning: true },
      // Stored bytes go out as they are, with their Content-Length (lib/compression.ts).
      compress: false,
      schema: {
        tags: ['videos'],
        summary: 'Stream an uploaded lecture video through its signed address (ranges supported)',
        security: [],
        params: DownloadParams,
        // Bytes, which Fastify sends as they are (streams are never serialised).
        response: {
          200: fileResponse(VIDEO_TYPES, 'The whole file'),
          206: fileResponse(VIDEO_TYPES, 'The requested range'),
          404: ErrorBody,
          410: ErrorBody,
          416: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { token } = DownloadParams.parse(request.params);
      const check = verifyDownload(ctx.config, token);
      if (!check.ok) {
        if (check.reason === 'expired') {
          throw new HttpError(
            410,
            'link_expired',
            'This video link has expired. Reload the page to get a new one.',
          );
        }
        throw notFound();
      }
      if (check.ref.kind !== 'video_file') throw notFound();
      const { key, contentType } = check.ref;
      try {
        const size = await ctx.storage.size(key);
        const range = parseRange(request.headers.range, size);
        if (range === 'invalid') {
          return reply.code(416).header('content-range', `bytes */${size}`).send({
            detail: 'The requested range is not in the file.',
            code: 'range_not_satisfiable',
          });
        }
        reply
          .header('content-type', contentType)
          .header('accept-ranges', 'bytes')
          .header('content-disposition', contentDisposition(null, 'inline'))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=3600');
        if (!range) return reply.header('content-length', size).send(await ctx.storage.get(key));
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(await ctx.storage.get(key, range));
      } catch (error) {
        if (error instanceof StorageNotFoundError) throw notFound();
        throw error;
      }
    },
  );
}
