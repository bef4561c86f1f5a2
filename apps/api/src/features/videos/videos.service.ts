import {
  DEFAULT_COMPLETION_PERCENT,
  MAX_VIDEOS_PER_COURSE,
  type CourseRole,
  type Video,
  type VideoCreate,
  type VideoList,
  type VideoListQuery,
  type VideoSettings,
  type VideoSettingsUpdate,
  type VideoUpdate,
} from '@kadai/contracts';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { DOWNLOAD_PATH, signDownload } from '../../lib/downloads.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import * as repo from './videos.repo.ts';

/*
 * A course's lecture videos (docs/videos.md): members list and watch them (others 404); editors of the
 * course and staff add, change, hide, delete and sync them (students 403).
 */

/** Where uploaded video files stream from (a signed token, like downloads, but inline and by ranges). */
export const VIDEO_FILE_PATH = '/api/VideoFile/';
const VideoFileContentType = z.enum(['video/mp4', 'video/webm', 'video/ogg']);

export async function requireVideoManager(db: Executor, actor: Actor, courseId: number): Promise<void> {
  if (!canManageCourse(await getCourseRole(db, actor, courseId))) {
    throw forbidden('Only editors of the course and staff can manage its videos.');
  }
}

/** A signed address streaming an uploaded file, valid for the video's length and an hour more. */
function streamUrl(config: Config, row: repo.VideoRow): string | null {
  if (row.platform !== 'file' || !row.storageKey || !row.contentType) return null;
  const contentType = VideoFileContentType.safeParse(row.contentType);
  if (!contentType.success) return null;
  return signDownload(
    config,
    { kind: 'video_file', key: row.storageKey, contentType: contentType.data },
    Math.min(row.durationSeconds + 3600, 86_400),
  ).replace(DOWNLOAD_PATH, VIDEO_FILE_PATH);
}

export function toVideo(row: repo.VideoRow, config: Config): Video {
  return {
    id: row.id,
    course: row.courseId,
    platform: row.platform,
    video_id: row.externalId,
    name: row.name,
    description: row.description,
    duration: row.durationSeconds,
    thumbnail_url: row.thumbnailUrl,
    stream_url: streamUrl(config, row),
    position: row.position,
    hidden: row.hidden,
    missing_from_source: row.missingFromSource,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toSettings(ctx: AppContext, row: repo.VideoSettingsRow | null): VideoSettings {
  return {
    completion_percent: row?.completionPercent ?? DEFAULT_COMPLETION_PERCENT,
    vimeo_source:
      row?.vimeoSourceKind && row.vimeoSourceId ? { kind: row.vimeoSourceKind, id: row.vimeoSourceId } : null,
    vimeo_configured: Boolean(ctx.config.VIMEO_ACCESS_TOKEN),
  };
}

export async function listVideos(ctx: AppContext, actor: Actor, query: VideoListQuery): Promise<VideoList> {
  const role = await getCourseRole(ctx.db, actor, query.course);
  const [{ count, rows }, settings] = await Promise.all([
    repo.listVideos(ctx.db, query.course, {
      name: query.name || undefined,
      studentView: !canManageCourse(role),
      limit: MAX_VIDEOS_PER_COURSE,
    }),
    repo.findSettings(ctx.db, query.course),
  ]);
  return {
    count,
    can_manage: canManageCourse(role),
    settings: toSettings(ctx, settings),
    players: { vimeo: ctx.config.VIMEO_PLAYER_URL, youtube: ctx.config.YOUTUBE_EMBED_URL },
    results: rows.map((row) => toVideo(row, ctx.config)),
  };
}

/** The video, if the caller may see it: members of its course; hidden ones only to its managers. */
export async function findVisibleVideo(
  db: Executor,
  actor: Actor,
  id: number,
): Promise<{ video: repo.VideoRow; role: CourseRole }> {
  const video = await repo.findVideo(db, id);
  if (!video) throw notFound();
  const role = await getCourseRole(db, actor, video.courseId);
  if (!canManageCourse(role) && (video.hidden || video.missingFromSource)) throw notFound();
  return { video, role };
}

export async function getVideoName(ctx: AppContext, actor: Actor, id: number) {
  const { video } = await findVisibleVideo(ctx.db, actor, id);
  return { id: video.id, name: video.name };
}

export async function createVideo(ctx: AppContext, actor: Actor, input: VideoCreate): Promise<Video> {
  await requireVideoManager(ctx.db, actor, input.course);
  if ((await repo.countVideos(ctx.db, input.course)) >= MAX_VIDEOS_PER_COURSE) {
    throw conflict(`A course has at most ${MAX_VIDEOS_PER_COURSE} videos.`, 'too_many_videos');
  }
  const row = await repo.insertVideo(ctx.db, {
    courseId: input.course,
    platform: input.platform,
    externalId: input.video_id,
    name: input.name,
    description: input.description,
    durationSeconds: input.duration,
    thumbnailUrl: input.thumbnail_url,
    position: input.position ?? (await repo.nextPosition(ctx.db, input.course)),
  });
  if (!row) {
    throw conflict('This video is already in the course.', 'duplicate_video', {
      video_id: ['This video is already in the course.'],
    });
  }
  return toVideo(row, ctx.config);
}

async function findManagedVideo(ctx: AppContext, actor: Actor, id: number): Promise<repo.VideoRow> {
  const { video, role } = await findVisibleVideo(ctx.db, actor, id);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff can manage its videos.');
  return video;
}

export async function updateVideo(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: VideoUpdate,
): Promise<Video> {
  await findManagedVideo(ctx, actor, id);
  const row = await repo.updateVideo(ctx.db, id, {
    name: input.name,
    description: input.description,
    durationSeconds: input.duration,
    position: input.position,
    hidden: input.hidden,
  });
  if (!row) throw notFound();
  return toVideo(row, ctx.config);
}

/** Deletes the video and everyone's statistics of it (and an uploaded file's bytes). */
export async function deleteVideo(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const video = await findManagedVideo(ctx, actor, id);
  if (!(await repo.deleteVideo(ctx.db, id))) throw notFound();
  if (video.storageKey) {
    await ctx.storage.delete(video.storageKey).catch((error: unknown) => {
      ctx.log.warn({ err: error, key: video.storageKey }, 'videos: could not remove a deleted video file');
    });
  }
}

export async function updateSettings(
  ctx: AppContext,
  actor: Actor,
  input: VideoSettingsUpdate,
): Promise<VideoSettings> {
  await requireVideoManager(ctx.db, actor, input.course);
  const fields: Partial<Omit<repo.VideoSettingsRow, 'courseId'>> = {};
  if (input.completion_percent !== undefined) fields.completionPercent = input.completion_percent;
  if (input.vimeo_source !== undefined) {
    fields.vimeoSourceKind = input.vimeo_source?.kind ?? null;
    fields.vimeoSourceId = input.vimeo_source?.id ?? null;
  }
  const row =
    Object.keys(fields).length > 0
      ? await repo.upsertSettings(ctx.db, input.course, fields)
      : await repo.findSettings(ctx.db, input.course);
  return toSettings(ctx, row);
}
