import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoList, VideoSync, VideoSyncStatus } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { startFakeVimeo, type FakeVimeo } from '../../../test/fake-vimeo.ts';
import { rateLimitWaitMs } from './vimeo.client.ts';
import { runSync, startVideoJobs } from './sync.service.ts';
import { createVideoWorld } from './testing.ts';

type World = Awaited<ReturnType<typeof createVideoWorld>>;

const lectures = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    id: String(700_000 + from + i),
    name: `Week ${from + i}`,
    duration: 600,
  }));

describe('sync with Vimeo', () => {
  let vimeo: FakeVimeo;
  let t: TestApp;
  let w: World;
  const finished: (VideoSync | null)[] = [];

  beforeAll(async () => {
    vimeo = await startFakeVimeo({ pageSize: 2 });
    t = await createTestApp({
      jobs: true,
      env: { VIMEO_ACCESS_TOKEN: vimeo.token, VIMEO_API_URL: vimeo.url },
    });
    await startVideoJobs(t.ctx, { onFinished: (sync) => finished.push(sync) });
    w = await createVideoWorld(t);
  });
  afterAll(async () => {
    await t.close();
    await vimeo.close();
  });

  /** The course's folder on the fake Vimeo, and the course pointed at it. */
  async function courseWithFolder(folderId: string, videos: ReturnType<typeof lectures>) {
    const world = await createVideoWorld(t);
    vimeo.folders.set(folderId, videos);
    const res = await call(t, 'PUT', '/api/vimeo-videos/settings', {
      token: world.tokens.editor,
      body: { course: world.course.id, vimeo_source: { kind: 'folder', id: folderId } },
    });
    expect(res.status).toBe(200);
    return world;
  }

  async function syncNow(world: World): Promise<VideoSync> {
    const res = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: world.tokens.editor,
      body: { course: world.course.id },
    });
    expect(res.status).toBe(202);
    const id = VideoSync.parse(res.body).id;
    await expect
      .poll(() => finished.some((s) => s?.id === id), { timeout: 15_000, interval: 100 })
      .toBe(true);
    return finished.find((s) => s?.id === id)!;
  }

  const videosOf = async (world: World) =>
    VideoList.parse(
      (
        await call(t, 'GET', '/api/vimeo-videos', {
          token: world.tokens.editor,
          query: { course: String(world.course.id) },
        })
      ).body,
    ).results;

  it('runs as a job: queued at once, then succeeded, across pages', async () => {
    const world = await courseWithFolder('5001', lectures(5));
    const res = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: world.tokens.editor,
      body: { course: world.course.id },
    });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'queued', added: 0 });
    // A second request while the first waits gets the first.
    const again = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: world.tokens.editor,
      body: { course: world.course.id },
    });
    expect(again.json.id).toBe(res.json.id);
    await expect
      .poll(
        async () =>
          VideoSyncStatus.parse(
            (
              await call(t, 'GET', '/api/vimeo-videos/sync', {
                token: world.tokens.editor,
                query: { course: String(world.course.id) },
              })
            ).body,
          ).sync?.status,
        { timeout: 15_000, interval: 200 },
      )
      .toBe('succeeded');
    expect(finished.find((s) => s?.id === res.json.id)).toMatchObject({
      added: 5,
      updated: 0,
      // The world's own Vimeo video is not in the folder.
      missing: 1,
    });
    // The job delivered a second time finds the sync finished and leaves it alone.
    expect(await runSync(t.ctx, Number(res.json.id))).toBeNull();
    // Three pages of two, each with the token, on the fake's host only.
    expect(vimeo.requests.filter((r) => r.startsWith('/me/projects/5001/videos'))).toHaveLength(3);
    const videos = await videosOf(world);
    // The world's own video has a random id, so the folder's are picked by theirs.
    const folder = new Set(lectures(5).map((l) => l.id));
    expect(videos.filter((v) => v.platform === 'vimeo' && folder.has(v.video_id)).map((v) => v.name)).toEqual(
      ['Week 1', 'Week 2', 'Week 3', 'Week 4', 'Week 5'],
    );
    expect(videos.find((v) => v.name === 'Week 1')?.thumbnail_url).toMatch(/640x360$/);
  });

  it('adds new videos, updates changed ones, marks gone ones and keeps their statistics', async () => {
    const world = await courseWithFolder('5002', lectures(3));
    expect(await syncNow(world)).toMatchObject({ status: 'succeeded', added: 3 });
    const before = await videosOf(world);
    const lecture1 = before.find((v) => v.name === 'Week 1')!;
    const lecture3 = before.find((v) => v.name === 'Week 3')!;
    const watched = await call(t, 'POST', '/api/video-stats/', {
      token: world.tokens.student,
      body: { video: lecture3.id, intervals: [[0, 20]] },
    });
    expect(watched.status).toBe(201);

    vimeo.folders.set('5002', [
      {
        ...lectures(1)[0]!,
        name: 'Week 1 (re-recorded)',
        duration: 700,
        modified: '2026-11-01T00:00:00Z',
      },
      lectures(1, 2)[0]!,
      lectures(1, 4)[0]!,
    ]);
    expect(await syncNow(world)).toMatchObject({
      status: 'succeeded',
      added: 1,
      updated: 1,
      unchanged: 1,
      missing: 1,
    });
    const after = await videosOf(world);
    expect(after.find((v) => v.id === lecture1.id)).toMatchObject({
      name: 'Week 1 (re-recorded)',
      duration: 700,
    });
    expect(after.find((v) => v.id === lecture3.id)).toMatchObject({ missing_from_source: true });
    const stat = await call(t, 'GET', `/api/video-stats/${watched.json.id}/`, {
      token: world.tokens.student,
    });
    expect(stat.json).toMatchObject({ watched_seconds: 20 });
    // Students no longer see the missing one.
    const forStudent = VideoList.parse(
      (
        await call(t, 'GET', '/api/vimeo-videos', {
          token: world.tokens.student,
          query: { course: String(world.course.id) },
        })
      ).body,
    );
    expect(forStudent.results.map((v) => v.id)).not.toContain(lecture3.id);

    // It comes back: shown again, stats still there.
    vimeo.folders.set('5002', lectures(4));
    expect(await syncNow(world)).toMatchObject({ added: 0, missing: 0 });
    expect((await videosOf(world)).find((v) => v.id === lecture3.id)?.missing_from_source).toBe(false);
  });

  it('waits out a 429 and retries a 5xx', async () => {
    const world = await courseWithFolder('5003', lectures(1));
    vimeo.failNext({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 });
    expect(await syncNow(world)).toMatchObject({ status: 'succeeded', added: 1 });
  });

  it.each([
    [{ status: 401 }, 'Vimeo refused the access token (401). Check VIMEO_ACCESS_TOKEN.'],
    [
      { status: 429, headers: { 'retry-after': '3600' } },
      "Vimeo's rate limit was reached; try again in 3600 seconds (429).",
    ],
    [{ status: 200, body: '<html>' }, 'Vimeo answered something that is not JSON.'],
    [
      { status: 200, body: '{"data":[{"uri":"/users/1"}]}' },
      'Vimeo answered something unexpected: data.0.uri',
    ],
    [{ status: 200, body: '{"data":"none"}' }, 'Vimeo answered something unexpected: data'],
  ])('fails with the reason on %j', async (failure, reason) => {
    const world = await courseWithFolder(`51${Math.floor(Math.random() * 1e6)}`, lectures(1));
    vimeo.failNext(failure);
    const sync = await syncNow(world);
    expect(sync.status).toBe('failed');
    expect(sync.error).toContain(reason);
    expect(sync.added).toBe(0);
  });

  it('fails for a folder Vimeo does not know', async () => {
    const world = await courseWithFolder('5004', []);
    vimeo.folders.delete('5004');
    const sync = await syncNow(world);
    expect(sync).toMatchObject({
      status: 'failed',
      error: 'Vimeo has no folder 5004 for this access token (404).',
    });
  });

  it('does not follow a next page to another host', async () => {
    const world = await courseWithFolder('5005', lectures(1));
    vimeo.failNext({
      status: 200,
      body: JSON.stringify({
        data: [],
        paging: { next: 'https://attacker.example/me/projects/5005/videos?page=2' },
      }),
    });
    expect(await syncNow(world)).toMatchObject({
      status: 'failed',
      error: 'Vimeo pointed the next page to another host.',
    });
  });

  it('refuses to sync without a folder, and is for managers only', async () => {
    const res = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: w.tokens.editor,
      body: { course: w.course.id },
    });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('no_vimeo_source');
    const student = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: w.tokens.student,
      body: { course: w.course.id },
    });
    expect(student.status).toBe(403);
    const bad = await call(t, 'PUT', '/api/vimeo-videos/sync', { token: w.tokens.editor, body: {} });
    expect(bad.status).toBe(400);
  });

  it('reads the wait of a 429 from Retry-After or X-RateLimit-Reset', () => {
    expect(rateLimitWaitMs(new Headers({ 'retry-after': '7' }))).toBe(7000);
    const now = Date.parse('2026-11-24T00:00:00Z');
    expect(rateLimitWaitMs(new Headers({ 'x-ratelimit-reset': '2026-11-24T00:00:30+00:00' }), now)).toBe(
      30_000,
    );
    expect(rateLimitWaitMs(new Headers({}))).toBeNull();
  });
});

describe('sync without configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 409 with the reason', async () => {
    const w = await createVideoWorld(t);
    const res = await call(t, 'PUT', '/api/vimeo-videos/sync', {
      token: w.tokens.editor,
      body: { course: w.course.id },
    });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      code: 'vimeo_not_configured',
      detail: 'Vimeo is not configured on this server: set VIMEO_ACCESS_TOKEN to sync videos.',
    });
    const status = await call(t, 'GET', '/api/vimeo-videos/sync', {
      token: w.tokens.editor,
      query: { course: String(w.course.id) },
    });
    expect(status.body).toEqual({ sync: null });
  });
});
