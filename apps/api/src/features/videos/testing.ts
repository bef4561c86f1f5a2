import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { multipartBody } from '../assignments/testing.ts';
import { videoStats, videos } from '../../db/schema-videos.ts';

/** Test data for lecture videos, written straight to the database (the routes are what the tests test). */

export async function insertVideo(
  t: TestApp,
  fields: Pick<typeof videos.$inferInsert, 'courseId'> & Partial<typeof videos.$inferInsert>,
) {
  const [row] = await t.ctx.db
    .insert(videos)
    .values({
      platform: 'vimeo',
      externalId: String(100_000 + randomBytes(3).readUIntBE(0, 3)),
      name: `Lecture ${randomBytes(3).toString('hex')}`,
      durationSeconds: 600,
      ...fields,
    })
    .returning();
  return row!;
}

/** Moves the viewer's last report into the past, as if they had been watching for `seconds`. */
export async function ageStat(t: TestApp, statId: number, seconds: number) {
  await t.ctx.db
    .update(videoStats)
    .set({ updatedAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(videoStats.id, statId));
}

/**
 * The callers of the authorization matrix around a course with one visible video and the student's stat
 * of it: anonymous, a student of the course, an outsider, an editor, an editor of another course, staff.
 */
export async function createVideoWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const video = await insertVideo(t, { courseId: world.course.id, name: 'Lecture 1' });
  const [stat] = await t.ctx.db
    .insert(videoStats)
    .values({ userId: world.users.student.id, videoId: video.id, courseId: world.course.id })
    .returning();
  return { ...world, video, stat: stat! };
}

/** 2 KiB that start like an MP4 file (an `ftyp` box). */
export const FAKE_MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.alloc(2036, 7),
]);

export function uploadVideoFile(
  t: TestApp,
  courseId: number,
  token: string | undefined,
  file: { filename: string; content: Buffer },
  fields: Record<string, string> = { name: 'Recorded lecture', duration: '90' },
) {
  const { payload, contentType } = multipartBody([{ ...file, contentType: 'video/mp4' }], fields);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  return t.app.inject({
    method: 'POST',
    url: `/api/vimeo-videos/upload?course=${courseId}`,
    headers,
    payload,
  });
}
