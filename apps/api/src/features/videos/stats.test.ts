import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoStat, VideoStatList, VideoTable } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createUser, tokenFor } from '../../../test/factories.ts';
import { ageStat, createVideoWorld, insertVideo } from './testing.ts';

type World = Awaited<ReturnType<typeof createVideoWorld>>;

describe('watch statistics', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createVideoWorld(t);
  });
  afterAll(() => t.close());

  const report = (token: string, body: Record<string, unknown>) =>
    call(t, 'POST', '/api/video-stats/', { token, body });

  it('merges reports: a seek is a gap, a replay counts once, progress is distinct seconds ÷ duration', async () => {
    const video = await insertVideo(t, { courseId: w.course.id, durationSeconds: 100 });
    const first = await report(w.tokens.student, { video: video.id, intervals: [[0, 20]], position: 20 });
    expect(first.status).toBe(201);
    const stat = VideoStat.parse(first.body);
    expect(stat).toMatchObject({ watched_seconds: 20, progress: 0.2, completed: false, last_position: 20 });

    await ageStat(t, stat.id, 60);
    // Sought to 80, watched to the end, then replayed 0–10.
    const second = await report(w.tokens.student, {
      video: video.id,
      intervals: [
        [80, 100],
        [0, 10],
      ],
      position: 10,
    });
    expect(second.status).toBe(200);
    expect(VideoStat.parse(second.body)).toMatchObject({
      id: stat.id,
      intervals: [
        [0, 20],
        [80, 100],
      ],
      watched_seconds: 40,
      progress: 0.4,
      completed: false,
    });

    await ageStat(t, stat.id, 60);
    const third = await call(t, 'PATCH', `/api/video-stats/${stat.id}/`, {
      token: w.tokens.student,
      body: { intervals: [[20, 80]] },
    });
    expect(VideoStat.parse(third.body)).toMatchObject({ watched_seconds: 100, progress: 1, completed: true });
    expect(third.json.completed_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });

  it('counts no more than could have been played since the previous report', async () => {
    const video = await insertVideo(t, { courseId: w.course.id, durationSeconds: 3600 });
    // Reporting the whole lecture at once: the first report may add 30 s.
    const first = VideoStat.parse(
      (await report(w.tokens.student, { video: video.id, intervals: [[0, 3600]] })).body,
    );
    expect(first.watched_seconds).toBe(30);
    // 10 s later (2× speed allowed, plus 30 s slack): at most 50 s more.
    await ageStat(t, first.id, 10);
    const next = VideoStat.parse(
      (await report(w.tokens.student, { video: video.id, intervals: [[0, 3600]] })).body,
    );
    expect(next.watched_seconds).toBeGreaterThanOrEqual(80);
    expect(next.watched_seconds).toBeLessThanOrEqual(81);
  });

  it('follows the course’s completion threshold', async () => {
    const video = await insertVideo(t, { courseId: w.course.id, durationSeconds: 40 });
    await call(t, 'PUT', '/api/vimeo-videos/settings', {
      token: w.tokens.editor,
      body: { course: w.course.id, completion_percent: 50 },
    });
    const res = await report(w.tokens.student, { video: video.id, intervals: [[0, 20]] });
    expect(res.json).toMatchObject({ progress: 0.5, completed: true });
    await call(t, 'PUT', '/api/vimeo-videos/settings', {
      token: w.tokens.editor,
      body: { course: w.course.id, completion_percent: 90 },
    });
  });

  it.each(
    (
      [
        [{ intervals: [[10, 5]] }, 'intervals.0'],
        [{ intervals: [[0, 'x']] }, 'intervals.0.1'],
        [{ intervals: [[0]] }, 'intervals.0'],
        [{ intervals: [[-1, 5]] }, 'intervals.0.0'],
        [{ intervals: Array.from({ length: 101 }, (_, i) => [i, i + 1]) }, 'intervals'],
        [{ position: -3 }, 'position'],
        [{ extra: 1 }, 'non_field_errors'],
      ] as [Record<string, unknown>, string][]
    ).map(([fields, field]) => ({ fields, field })),
  )('refuses a malformed report (field $field)', async ({ fields, field }) => {
    const res = await report(w.tokens.student, { video: w.video.id, ...fields });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json)).toContain(field);
  });

  it('refuses reports on videos the viewer may not see', async () => {
    const hidden = await insertVideo(t, { courseId: w.course.id, hidden: true });
    const elsewhere = await insertVideo(t, { courseId: w.otherCourse.id });
    expect((await report(w.tokens.student, { video: hidden.id, intervals: [[0, 1]] })).status).toBe(404);
    expect((await report(w.tokens.student, { video: elsewhere.id, intervals: [[0, 1]] })).status).toBe(404);
    expect((await report(w.tokens.student, { video: 999_999, intervals: [[0, 1]] })).status).toBe(404);
  });

  it('lets nobody read or write someone else’s figures but the course’s managers read them', async () => {
    const url = `/api/video-stats/${w.stat.id}/`;
    const classmate = await createUser(t);
    await addStudent(t, w.course.id, classmate.id);
    const classmateToken = await tokenFor(t, classmate);
    expect((await call(t, 'GET', url, { token: classmateToken })).status).toBe(404);
    expect((await call(t, 'GET', url, { token: w.tokens.otherEditor })).status).toBe(404);
    expect((await call(t, 'GET', url, { token: w.tokens.editor })).status).toBe(200);
    expect((await call(t, 'GET', url, { token: w.tokens.student })).status).toBe(200);
    const body = { intervals: [[0, 5]] };
    expect((await call(t, 'PUT', url, { token: classmateToken, body })).status).toBe(404);
    expect((await call(t, 'PUT', url, { token: w.tokens.editor, body })).status).toBe(403);
    expect((await call(t, 'PUT', url, { token: w.tokens.staff, body })).status).toBe(403);

    // Lists: a student gets their own rows whatever they ask; asking for a classmate is 404.
    const mine = VideoStatList.parse(
      (
        await call(t, 'GET', '/api/video-stats/', {
          token: classmateToken,
          query: { course: String(w.course.id) },
        })
      ).body,
    );
    expect(mine.results.every((s) => s.user === classmate.id)).toBe(true);
    const asked = await call(t, 'GET', '/api/video-stats/', {
      token: classmateToken,
      query: { user: String(w.users.student.id) },
    });
    expect(asked.status).toBe(404);
    const editorView = VideoStatList.parse(
      (
        await call(t, 'GET', '/api/video-stats/', {
          token: w.tokens.editor,
          query: { video: String(w.video.id), user: String(w.users.student.id) },
        })
      ).body,
    );
    expect(editorView.results.map((s) => s.id)).toEqual([w.stat.id]);
    // An editor of another course asking by this course's video sees only their own (none).
    const foreign = VideoStatList.parse(
      (
        await call(t, 'GET', '/api/video-stats/', {
          token: w.tokens.otherEditor,
          query: { video: String(w.video.id) },
        })
      ).body,
    );
    expect(foreign.count).toBe(0);
    const bad = await call(t, 'GET', '/api/video-stats/', {
      token: w.tokens.editor,
      query: { limit: '500' },
    });
    expect(bad.status).toBe(400);
  });

  it('builds the course table and its CSV for managers only', async () => {
    const course = await createVideoWorld(t);
    const a = await insertVideo(t, {
      courseId: course.course.id,
      name: 'A',
      durationSeconds: 100,
      position: 0,
    });
    const b = await insertVideo(t, {
      courseId: course.course.id,
      name: '=B',
      durationSeconds: 50,
      position: 1,
    });
    await insertVideo(t, { courseId: course.course.id, name: 'Hidden', hidden: true, position: 2 });
    const other = await createUser(t, { firstName: 'Zed', lastName: 'Zimmer' });
    await addStudent(t, course.course.id, other.id);
    const studentToken = course.tokens.student;
    await report(studentToken, { video: a.id, intervals: [[0, 30]] });
    await report(studentToken, { video: b.id, intervals: [[0, 30]] });
    await report(await tokenFor(t, other), { video: a.id, intervals: [[0, 10]] });

    const url = `/api/video-stats/course/${course.course.id}/`;
    expect((await call(t, 'GET', url, { token: studentToken })).status).toBe(403);
    expect((await call(t, 'GET', url, { token: course.tokens.otherEditor })).status).toBe(404);
    const table = VideoTable.parse(
      (await call(t, 'GET', url, { token: course.tokens.editor, query: { ordering: '-completed' } })).body,
    );
    expect(table.count).toBe(2);
    // The world's own "Lecture 1" comes first (position 0, lower id), then A and =B; hidden ones are left out.
    expect(table.videos.map((v) => v.name)).toEqual(['Lecture 1', 'A', '=B']);
    const [first, second] = table.results;
    expect(first!.user.id).toBe(course.users.student.id);
    expect(first!.completed).toBe(0);
    expect(first!.cells.map((c) => c?.progress ?? null)).toEqual([0, 0.3, 0.6]);
    expect(second!.user.id).toBe(other.id);
    expect(second!.cells.map((c) => c?.progress ?? null)).toEqual([null, 0.1, null]);
    const searched = VideoTable.parse(
      (await call(t, 'GET', url, { token: course.tokens.editor, query: { search: 'zimmer' } })).body,
    );
    expect(searched.results.map((r) => r.user.id)).toEqual([other.id]);
    const beyond = VideoTable.parse(
      (await call(t, 'GET', url, { token: course.tokens.editor, query: { offset: '10' } })).body,
    );
    expect(beyond).toMatchObject({ count: 2, results: [] });

    const csv = await call(t, 'GET', `${url}csv/`, { token: course.tokens.editor });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = String(csv.body).replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe("last_name,first_name,email,completed,last_watched_at,Lecture 1 (%),A (%),'=B (%)");
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('Zimmer'))).toMatch(/,,10,$/);
    expect((await call(t, 'GET', `${url}csv/`, { token: studentToken })).status).toBe(403);
  });
});
