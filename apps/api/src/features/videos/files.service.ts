import { randomBytes } from 'node:crypto';
import { MAX_VIDEOS_PER_COURSE, VIDEO_FILE_TYPES, VideoUploadFields, type Video } from '@kadai/contracts';
import type { FastifyRequest } from 'fastify';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { newStorageKey, type Storage } from '../../lib/storage.ts';
import { receiveFiles } from '../../lib/uploads.ts';
import * as repo from './videos.repo.ts';
import { requireVideoManager, toVideo } from './videos.service.ts';

/*
 * Lecture videos uploaded to the course (docs/videos.md, "Uploaded files"): one MP4, WebM or Ogg file
 * per request, streamed to storage under the size limit, its type decided by its name and checked by its
 * first bytes, then listed like the hosted videos and streamed back with ranges through a signed address.
 */

type VideoType = (typeof VIDEO_FILE_TYPES)[keyof typeof VIDEO_FILE_TYPES];

function typeOf(filename: string): VideoType | null {
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  return (VIDEO_FILE_TYPES as Record<string, VideoType>)[extension] ?? null;
}

/** Whether the first bytes are those of the container the name promised. */
export function looksLike(type: VideoType, head: Buffer): boolean {
  switch (type) {
    case 'video/mp4':
      return head.subarray(4, 8).toString('latin1') === 'ftyp';
    case 'video/webm':
      return head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    case 'video/ogg':
      return head.subarray(0, 4).toString('latin1') === 'OggS';
  }
}

async function headOf(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key, { start: 0, end: 15 })) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

const notAVideo = () =>
  badRequest(
    'Upload an MP4, WebM or Ogg video file.',
    { file: ['Not an MP4, WebM or Ogg video.'] },
    'not_a_video',
  );

export async function uploadVideo(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  request: FastifyRequest,
): Promise<Video> {
  await requireVideoManager(ctx.db, actor, courseId);
  if ((await repo.countVideos(ctx.db, courseId)) >= MAX_VIDEOS_PER_COURSE) {
    throw conflict(`A course has at most ${MAX_VIDEOS_PER_COURSE} videos.`, 'too_many_videos');
  }
  const maxBytes = ctx.config.VIDEO_MAX_UPLOAD_MB * 1024 * 1024;
  const stored: string[] = [];
  try {
    const { results, fields } = await receiveFiles(
      request,
      { maxFiles: 1, maxFileBytes: maxBytes },
      async (file) => {
        const type = typeOf(file.filename);
        if (!type) {
          file.stream.resume();
          throw notAVideo();
        }
        const key = newStorageKey(`videos/${courseId}`);
        stored.push(key);
        const { size } = await ctx.storage.put(key, file.stream, type, { maxBytes });
        if (!looksLike(type, await headOf(ctx.storage, key))) throw notAVideo();
        return { key, size, type, filename: file.filename };
      },
    );
    const upload = results[0]!;
    const parsed = VideoUploadFields.safeParse(fields);
    if (!parsed.success) {
      const issues: Record<string, string[]> = {};
      for (const issue of parsed.error.issues)
        (issues[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
      throw badRequest('Give the video a name and its length in seconds.', issues);
    }
    const row = await repo.insertVideo(ctx.db, {
      courseId,
      platform: 'file',
      externalId: randomBytes(12).toString('base64url'),
      name: parsed.data.name,
      description: parsed.data.description,
      durationSeconds: parsed.data.duration,
      storageKey: upload.key,
      fileSize: upload.size,
      contentType: upload.type,
      position: await repo.nextPosition(ctx.db, courseId),
    });
    return toVideo(row!, ctx.config);
  } catch (error) {
    await Promise.all(stored.map((key) => ctx.storage.delete(key).catch(() => {})));
    throw error;
  }
}
