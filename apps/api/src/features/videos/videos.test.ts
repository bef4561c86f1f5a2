import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Video, VideoList, VideoSettings } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createUser, tokenFor } from '../../../test/factories.ts';
import { createVideoWorld, insertVideo } from './testing.ts';

type World = Awaited<ReturnType<typeof createVideoWorld>>;

describe('lecture videos', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createVideoWorld(t);
  });
  afterAll(() => t.close());

  const list = (token: string | undefined, query: Record<string, string> = {}) =>
    call(t, 'GET', '/api/vimeo-videos', { token, query: { course: String(w.course.id), ...query } });

  it('lists the course’s videos in order, hidden and missing ones only for its managers', async () => {
    const hidden = await insertVideo(t, { courseId: w.course.id, name: 'Draft', hidden: true, position: 5 });
    const gone = await insertVideo(t, {
      courseId: w.course.id,
      name: 'Gone',
      missingFromSource: true,
      position: 6,
    });
    const second = await insertVideo(t, { courseId: w.course.id, name: 'Lecture 2', position: 1 });

    const student = VideoList.parse((await list(w.tokens.student)).body);
    expect(student.can_manage).toBe(false);
    expect(student.results.map((v) => v.name)).toEqual(['Lecture 1', 'Lecture 2']);
    expect(student.settings).toEqual({ completion_percent: 90, vimeo_source: null, vimeo_configured: false });
    expect(student.players.vimeo).toBe('https://player.vimeo.com/video/');

    const editor = VideoList.parse((await list(w.tokens.editor)).body);
    expect(editor.can_manage).toBe(true);
    expect(editor.results.map((v) => v.id)).toEqual([w.video.id, second.id, hidden.id, gone.id]);

    const named = VideoList.parse((await list(w.tokens.student, { name: 'ture 2' })).body);
    expect(named.results.map((v) => v.id)).toEqual([second.id]);
    // A LIKE wildcard in the search is a plain character.
    expect(VideoList.parse((await list(w.tokens.student, { name: '%' })).body).count).toBe(0);

    // A hidden video is not found for a student, by id or by name.
    expect(
      (await call(t, 'GET', `/api/vimeo-videos/${hidden.id}/`, { token: w.tokens.student })).status,
    ).toBe(404);
    expect(
      (await call(t, 'GET', `/api/vimeo-videos/${gone.id}/name`, { token: w.tokens.student })).status,
    ).toBe(404);
    const name = await call(t, 'GET', `/api/vimeo-videos/${second.id}/name`, { token: w.tokens.student });
    expect(name.body).toEqual({ id: second.id, name: 'Lecture 2' });
  });

  it('refuses a list without a course, or of a course the caller is not in', async () => {
    expect((await call(t, 'GET', '/api/vimeo-videos', { token: w.tokens.student })).status).toBe(400);
    expect((await list(w.tokens.otherEditor)).status).toBe(404);
    expect((await list(undefined)).status).toBe(401);
    const bad = await call(t, 'GET', '/api/vimeo-videos', {
      token: w.tokens.student,
      query: { course: 'abc' },
    });
    expect(bad.status).toBe(400);
  });

  describe('adding videos', () => {
    const body = (fields: Record<string, unknown> = {}) => ({
      course: w.course.id,
      platform: 'youtube',
      video_id: 'dQw4w9WgXcQ',
      name: 'Guest lecture',
      duration: 212,
      ...fields,
    });

    it('adds a YouTube video at the end, then refuses it twice', async () => {
      const res = await call(t, 'POST', '/api/vimeo-videos', { token: w.tokens.editor, body: body() });
      expect(res.status).toBe(201);
      const video = Video.parse(res.body);
      expect(video).toMatchObject({
        platform: 'youtube',
        video_id: 'dQw4w9WgXcQ',
        duration: 212,
        hidden: false,
      });
      expect(video.position).toBeGreaterThan(1);
      const again = await call(t, 'POST', '/api/vimeo-videos', { token: w.tokens.editor, body: body() });
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({
        code: 'duplicate_video',
        video_id: ['This video is already in the course.'],
      });
    });

    it.each([
      [{ video_id: 'not-an-id' }, 'video_id'],
      [{ platform: 'vimeo', video_id: 'abc' }, 'video_id'],
      [{ platform: 'dailymotion' }, 'platform'],
      [{ name: '   ' }, 'name'],
      [{ duration: 0 }, 'duration'],
      [{ duration: '60' }, 'duration'],
      [{ thumbnail_url: 'javascript:alert(1)' }, 'thumbnail_url'],
      [{ thumbnail_url: 'http://example.com/a.jpg' }, 'thumbnail_url'],
      [{ extra: true }, 'non_field_errors'],
    ])('refuses %j (400, field %s)', async (fields, field) => {
      const res = await call(t, 'POST', '/api/vimeo-videos', { token: w.tokens.editor, body: body(fields) });
      expect(res.status).toBe(400);
      expect(Object.keys(res.json)).toContain(field);
    });

    it('lets only the course’s managers add', async () => {
      const student = await call(t, 'POST', '/api/vimeo-videos', { token: w.tokens.student, body: body() });
      expect(student.status).toBe(403);
      const outsider = await call(t, 'POST', '/api/vimeo-videos', {
        token: w.tokens.otherEditor,
        body: body(),
      });
      expect(outsider.status).toBe(404);
    });
  });

  it('changes, hides and deletes a video (managers only); a student then no longer sees it', async () => {
    const video = await insertVideo(t, { courseId: w.course.id, name: 'To change' });
    const url = `/api/vimeo-videos/${video.id}/`;
    expect((await call(t, 'PATCH', url, { token: w.tokens.student, body: { name: 'x' } })).status).toBe(403);
    expect((await call(t, 'PATCH', url, { token: w.tokens.otherEditor, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect((await call(t, 'PATCH', url, { token: w.tokens.editor, body: { duration: -1 } })).status).toBe(
      400,
    );
    const changed = await call(t, 'PATCH', url, {
      token: w.tokens.editor,
      body: { name: 'Renamed', hidden: true },
    });
    expect(Video.parse(changed.body)).toMatchObject({ name: 'Renamed', hidden: true });
    expect((await call(t, 'GET', url, { token: w.tokens.student })).status).toBe(404);
    expect((await call(t, 'DELETE', url, { token: w.tokens.student })).status).toBe(404);
    expect((await call(t, 'DELETE', url, { token: w.tokens.editor })).status).toBe(204);
    expect((await call(t, 'GET', url, { token: w.tokens.editor })).status).toBe(404);
    expect((await call(t, 'GET', '/api/vimeo-videos/0/', { token: w.tokens.editor })).status).toBe(404);
  });

  it('keeps the course’s settings: completion threshold and Vimeo folder', async () => {
    const url = '/api/vimeo-videos/settings';
    const put = (token: string | undefined, body: unknown) => call(t, 'PUT', url, { token, body });
    expect((await put(w.tokens.student, { course: w.course.id, completion_percent: 50 })).status).toBe(403);
    expect((await put(w.tokens.editor, { course: w.course.id, completion_percent: 0 })).status).toBe(400);
    const badFolder = await put(w.tokens.editor, {
      course: w.course.id,
      vimeo_source: { kind: 'folder', id: 'x' },
    });
    expect(badFolder.status).toBe(400);
    const saved = await put(w.tokens.editor, {
      course: w.course.id,
      completion_percent: 80,
      vimeo_source: { kind: 'showcase', id: '42' },
    });
    expect(VideoSettings.parse(saved.body)).toEqual({
      completion_percent: 80,
      vimeo_source: { kind: 'showcase', id: '42' },
      vimeo_configured: false,
    });
    // Only the given fields change.
    const partly = await put(w.tokens.editor, { course: w.course.id, vimeo_source: null });
    expect(partly.json).toMatchObject({ completion_percent: 80, vimeo_source: null });
  });

  it('lets a student of one course see nothing of another', async () => {
    const stranger = await createUser(t);
    const otherVideo = await insertVideo(t, { courseId: w.otherCourse.id });
    await addStudent(t, w.otherCourse.id, stranger.id);
    const token = await tokenFor(t, stranger);
    expect((await call(t, 'GET', `/api/vimeo-videos/${w.video.id}/`, { token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/vimeo-videos/${otherVideo.id}/`, { token })).status).toBe(200);
  });
});
