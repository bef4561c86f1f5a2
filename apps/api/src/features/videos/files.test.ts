import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Video, VideoList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { parseRange } from './files.routes.ts';
import { createVideoWorld, FAKE_MP4, uploadVideoFile } from './testing.ts';

type World = Awaited<ReturnType<typeof createVideoWorld>>;

describe('uploaded lecture videos', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp({ env: { VIDEO_MAX_UPLOAD_MB: '1' } });
    w = await createVideoWorld(t);
  });
  afterAll(() => t.close());

  it('uploads an MP4, lists it with a signed address and streams it by ranges', async () => {
    const res = await uploadVideoFile(t, w.course.id, w.tokens.editor, {
      filename: 'week1.mp4',
      content: FAKE_MP4,
    });
    expect(res.statusCode).toBe(201);
    const video = Video.parse(res.json());
    expect(video).toMatchObject({ platform: 'file', name: 'Recorded lecture', duration: 90 });
    expect(video.video_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(video.stream_url).toMatch(/^\/api\/VideoFile\//);

    // Students get the same address in the list.
    const list = VideoList.parse(
      (
        await call(t, 'GET', '/api/vimeo-videos', {
          token: w.tokens.student,
          query: { course: String(w.course.id) },
        })
      ).body,
    );
    const listed = list.results.find((v) => v.id === video.id)!;
    expect(listed.stream_url).toMatch(/^\/api\/VideoFile\//);

    const whole = await t.app.inject({ method: 'GET', url: listed.stream_url! });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    });
    expect(whole.rawPayload.equals(FAKE_MP4)).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: listed.stream_url!,
      headers: { range: 'bytes=4-11' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${FAKE_MP4.length}`);
    expect(part.body).toBe('ftypisom');
    const beyond = await t.app.inject({
      method: 'GET',
      url: listed.stream_url!,
      headers: { range: 'bytes=99999-' },
    });
    expect(beyond.statusCode).toBe(416);

    // A tampered token, or a video token on the download route, finds nothing.
    const token = listed.stream_url!.split('/').pop()!;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/VideoFile/${token.slice(0, -2)}xx` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/Download/${token}` })).statusCode).toBe(404);

    // Deleting the video removes the file.
    expect(
      (await call(t, 'DELETE', `/api/vimeo-videos/${video.id}/`, { token: w.tokens.editor })).status,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: listed.stream_url! })).statusCode).toBe(404);
  });

  it.each([
    ['a file that is not a video by name', { filename: 'notes.pdf', content: FAKE_MP4 }, 400],
    [
      'a file named .mp4 that is not one',
      { filename: 'fake.mp4', content: Buffer.from('<html>not a video</html>') },
      400,
    ],
    [
      'a file over the limit',
      { filename: 'big.mp4', content: Buffer.concat([FAKE_MP4, Buffer.alloc(1024 * 1024)]) },
      413,
    ],
  ])('refuses %s', async (_what, file, status) => {
    const res = await uploadVideoFile(t, w.course.id, w.tokens.editor, file);
    expect(res.statusCode).toBe(status);
  });

  it('refuses missing fields, and students', async () => {
    const noName = await uploadVideoFile(
      t,
      w.course.id,
      w.tokens.editor,
      { filename: 'a.mp4', content: FAKE_MP4 },
      {
        duration: '60',
      },
    );
    expect(noName.statusCode).toBe(400);
    expect(Object.keys(noName.json())).toContain('name');
    const badDuration = await uploadVideoFile(
      t,
      w.course.id,
      w.tokens.editor,
      { filename: 'a.mp4', content: FAKE_MP4 },
      { name: 'x', duration: 'long' },
    );
    expect(badDuration.statusCode).toBe(400);
    const student = await uploadVideoFile(t, w.course.id, w.tokens.student, {
      filename: 'a.mp4',
      content: FAKE_MP4,
    });
    expect(student.statusCode).toBe(403);
    const json = await call(t, 'POST', `/api/vimeo-videos/upload?course=${w.course.id}`, {
      token: w.tokens.editor,
      body: { name: 'x' },
    });
    expect(json.status).toBe(415);
  });

  it('reads byte ranges as browsers send them', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('invalid');
    expect(parseRange('bytes=5-1', 100)).toBe('invalid');
    expect(parseRange('items=0-1', 100)).toBe('invalid');
  });
});
