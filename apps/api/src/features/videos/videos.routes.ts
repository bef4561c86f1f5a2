import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CourseIdParams,
  ErrorBody,
  Id,
  IdParams,
  Video,
  VideoCreate,
  VideoList,
  VideoListQuery,
  VideoName,
  VideoSettings,
  VideoSettingsUpdate,
  VideoStat,
  VideoStatCreate,
  VideoStatList,
  VideoStatListQuery,
  VideoStatReport,
  VideoSync,
  VideoSyncQuery,
  VideoSyncRequest,
  VideoSyncStatus,
  VideoTable,
  VideoTableQuery,
  VideoUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as stats from './stats.service.ts';
import * as sync from './sync.service.ts';
import * as videos from './videos.service.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const VideoParams = z.object({ video_id: Id });

/** `vimeo-videos`: a course's lecture videos (Vimeo and YouTube), their settings and the Vimeo sync. */
export function registerVideoRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['videos'];
  const access = { access: 'user' } as const;

  api.get(
    '/vimeo-videos',
    {
      config: access,
      schema: {
        tags,
        summary: "The course's videos in order (members; hidden ones only for its editors and staff)",
        querystring: VideoListQuery,
        response: { 200: VideoList, ...errors },
      },
    },
    async (request) => videos.listVideos(ctx, actorOf(request), request.query),
  );

  api.post(
    '/vimeo-videos',
    {
      config: access,
      schema: {
        tags,
        summary: 'Add a Vimeo or YouTube video to the course by its id (editors of the course, staff)',
        body: VideoCreate,
        response: { 201: Video, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await videos.createVideo(ctx, actorOf(request), request.body)),
  );

  api.put(
    '/vimeo-videos/settings',
    {
      config: access,
      schema: {
        tags,
        summary: "The course's completion threshold and Vimeo folder or showcase (editors, staff)",
        body: VideoSettingsUpdate,
        response: { 200: VideoSettings, ...errors },
      },
    },
    async (request) => videos.updateSettings(ctx, actorOf(request), request.body),
  );

  api.put(
    '/vimeo-videos/sync',
    {
      config: access,
      schema: {
        tags,
        summary: "Sync the course's videos with its Vimeo folder or showcase, as a job (editors, staff)",
        description:
          'Answers 202 at once with the queued sync (or the one already waiting or running); poll ' +
          '`GET vimeo-videos/sync` for its outcome. 409 when Vimeo is not configured or the course has no folder.',
        body: VideoSyncRequest,
        response: { 202: VideoSync, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await sync.requestSync(ctx, actorOf(request), request.body.course)),
  );

  api.get(
    '/vimeo-videos/sync',
    {
      config: access,
      schema: {
        tags,
        summary: "The course's latest sync and its outcome (editors, staff)",
        querystring: VideoSyncQuery,
        response: { 200: VideoSyncStatus, ...errors },
      },
    },
    async (request) => sync.getSyncStatus(ctx, actorOf(request), request.query.course),
  );

  api.get(
    '/vimeo-videos/:video_id/name',
    {
      config: access,
      schema: {
        tags,
        summary: "A video's name (members who may see it)",
        params: VideoParams,
        response: { 200: VideoName, ...errors },
      },
    },
    async (request) => videos.getVideoName(ctx, actorOf(request), request.params.video_id),
  );

  api.get(
    '/vimeo-videos/:video_id/',
    {
      config: access,
      schema: {
        tags,
        summary: 'One video (members who may see it)',
        params: VideoParams,
        response: { 200: Video, ...errors },
      },
    },
    async (request) =>
      videos.toVideo(
        (await videos.findVisibleVideo(ctx.db, actorOf(request), request.params.video_id)).video,
        ctx.config,
      ),
  );

  api.patch(
    '/vimeo-videos/:video_id/',
    {
      config: access,
      schema: {
        tags,
        summary: "Change a video's name, description, duration, position or hidden flag (editors, staff)",
        params: VideoParams,
        body: VideoUpdate,
        response: { 200: Video, ...errors },
      },
    },
    async (request) => videos.updateVideo(ctx, actorOf(request), request.params.video_id, request.body),
  );

  api.delete(
    '/vimeo-videos/:video_id/',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a video and its watch statistics (editors, staff)',
        params: VideoParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await videos.deleteVideo(ctx, actorOf(request), request.params.video_id);
      return reply.code(204).send(null);
    },
  );

  registerStatRoutes(app, ctx);
}

/** `video-stats/`: what each viewer watched, and the course table with its CSV. */
function registerStatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['videos'];
  const access = { access: 'user' } as const;

  api.get(
    '/video-stats/',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Watch statistics: the caller's own, or a course's for its editors (by course or video), staff all",
        querystring: VideoStatListQuery,
        response: { 200: VideoStatList, ...errors },
      },
    },
    async (request) => stats.listStats(ctx, actorOf(request), request.query),
  );

  api.post(
    '/video-stats/',
    {
      config: access,
      schema: {
        tags,
        summary: 'Report what the player played of a video (the viewer); 201 for the first report, then 200',
        description:
          'Intervals are merged with those stored: a seek is a gap, a replay adds nothing, and a report adds at ' +
          'most 2 × the seconds since the previous one + 30 s.',
        body: VideoStatCreate,
        response: { 200: VideoStat, 201: VideoStat, ...errors },
      },
    },
    async (request, reply) => {
      const { stat, created } = await stats.reportWatch(ctx, actorOf(request), request.body);
      return reply.code(created ? 201 : 200).send(stat);
    },
  );

  api.get(
    '/video-stats/:id/',
    {
      config: access,
      schema: {
        tags,
        summary: 'One viewer’s statistics of one video (the viewer, editors of the course, staff)',
        params: IdParams,
        response: { 200: VideoStat, ...errors },
      },
    },
    async (request) => stats.getStat(ctx, actorOf(request), request.params.id),
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      '/video-stats/:id/',
      {
        config: access,
        schema: {
          tags,
          summary: 'Report more of what the player played (the viewer only)',
          params: IdParams,
          body: VideoStatReport,
          response: { 200: VideoStat, ...errors },
        },
      },
      async (request) => stats.reportOnStat(ctx, actorOf(request), request.params.id, request.body),
    );
  }

  api.get(
    '/video-stats/course/:course_id/',
    {
      config: access,
      schema: {
        tags,
        summary: 'Students × videos: progress and last watched, a page of students (editors, staff)',
        params: CourseIdParams,
        querystring: VideoTableQuery,
        response: { 200: VideoTable, ...errors },
      },
    },
    async (request) => stats.getTable(ctx, actorOf(request), request.params.course_id, request.query),
  );

  api.get(
    '/video-stats/course/:course_id/csv/',
    {
      config: access,
      schema: {
        tags,
        summary: 'The table as CSV, every student (editors, staff)',
        description:
          'text/csv in UTF-8 with a byte-order mark. Columns: ' +
          `${stats.VIDEO_CSV_HEADER.join(', ')}, then the percent watched of each video (empty: never played).`,
        params: CourseIdParams,
        response: { 200: fileResponse('text/csv', 'The CSV text'), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await stats.exportTableCsv(ctx, actorOf(request), request.params.course_id);
      return reply
        .type('text/csv; charset=utf-8')
        .headers(generatedFileHeaders(csv.contentDisposition))
        .send(csv.body);
    },
  );
}
