import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { ForumFinalizeResult, ForumRecordList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { forumRecords } from '../../db/schema-forum.ts';
import { findCourseStats } from './counts.repo.ts';
import { FORUM_FINALIZE_QUEUE, publishDueAnnouncements, startForumJobs } from './publish.ts';
import { createForumWorld, minutesFromNow, postRecord, type ForumWorld } from './testing.ts';

const USER = 'scheduler';
const PASSWORD = 'a-long-enough-finalize-password';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let t: TestApp;
let w: ForumWorld;

beforeAll(async () => {
  t = await createTestApp({
    jobs: true,
    env: { FORUM_FINALIZE_USER: USER, FORUM_FINALIZE_PASSWORD: PASSWORD },
  });
  w = await createForumWorld(t);
});
afterAll(() => t.close());

const finalize = (authorization?: string) =>
  call(t, 'POST', '/api/Forum/scheduled-announcements/finalize', {
    headers: authorization ? { authorization } : {},
  });

/** Schedules announcements, then moves their time into the past as if the clock had run on. */
async function dueAnnouncements(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const post = await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      title: `Due ${i}`,
      content: 'x',
      is_announcement: true,
      scheduled_at: minutesFromNow(30).toISOString(),
    });
    ids.push(post.id);
  }
  await t.ctx.db
    .update(forumRecords)
    .set({ scheduledAt: minutesFromNow(-1) })
    .where(inArray(forumRecords.id, ids));
  return ids;
}

describe('POST Forum/scheduled-announcements/finalize', () => {
  it('wants the configured Basic credentials (401 with a challenge otherwise)', async () => {
    for (const auth of [
      undefined,
      basic(USER, 'wrong-password-of-length'),
      basic('x', PASSWORD),
      'Basic !!!',
    ]) {
      const res = await finalize(auth);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    }
    const bearer = await call(t, 'POST', '/api/Forum/scheduled-announcements/finalize', {
      token: w.tokens.staff,
    });
    expect(bearer.status).toBe(401);
  });

  it('does not exist when no credentials are configured (404)', async () => {
    const bare = await createTestApp();
    try {
      const res = await call(bare, 'POST', '/api/Forum/scheduled-announcements/finalize', {
        headers: { authorization: basic(USER, PASSWORD) },
      });
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it('publishes due announcements once; students see them afterwards', async () => {
    const [id] = await dueAnnouncements(1);
    const before = await findCourseStats(t.ctx.db, w.course.id);
    const res = await finalize(basic(USER, PASSWORD));
    expect(res.status).toBe(200);
    expect(ForumFinalizeResult.parse(res.body).published).toEqual([id]);
    expect(ForumFinalizeResult.parse((await finalize(basic(USER, PASSWORD))).body).published).toEqual([]);
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual({
      topics: before.topics + 1,
      announcements: before.announcements + 1,
    });
    const seen = await call(t, 'GET', `/api/Forum/Record/${id}/`, { token: w.tokens.student });
    expect(seen.status).toBe(200);
    // Still waiting: the world's announcement an hour ahead.
    const hidden = await call(t, 'GET', `/api/Forum/Record/${w.scheduled.id}/`, { token: w.tokens.student });
    expect(hidden.status).toBe(404);
  });
});

describe('the forum-finalize job', () => {
  it('and the finalize call, run together, publish each announcement exactly once', async () => {
    const ids = await dueAnnouncements(6);
    const before = await findCourseStats(t.ctx.db, w.course.id);
    const published: number[] = [];
    let jobRuns = 0;
    const jobDone = new Promise<void>((resolve) => {
      void startForumJobs(t.ctx, {
        onPublished: (byJob) => {
          published.push(...byJob);
          jobRuns += 1;
          resolve();
        },
      });
    });
    const results = await Promise.all([
      t.ctx.jobs.send(FORUM_FINALIZE_QUEUE, {}),
      finalize(basic(USER, PASSWORD)),
      publishDueAnnouncements(t.ctx),
      finalize(basic(USER, PASSWORD)),
    ]);
    await jobDone;
    for (const result of results.slice(1)) {
      if (result === null || typeof result === 'string') continue;
      published.push(...('status' in result ? ForumFinalizeResult.parse(result.body) : result).published);
    }
    expect(jobRuns).toBeGreaterThanOrEqual(1);
    expect([...published].sort((a, b) => a - b)).toEqual(expect.arrayContaining(ids));
    expect(published.filter((id) => ids.includes(id))).toHaveLength(ids.length);
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual({
      topics: before.topics + ids.length,
      announcements: before.announcements + ids.length,
    });
    const list = ForumRecordList.parse(
      (
        await call(t, 'GET', '/api/Forum/Record/announcements/', {
          token: w.tokens.student,
          query: { course: String(w.course.id), limit: '100' },
        })
      ).body,
    );
    expect(list.count).toBe(list.results.length);
    expect(list.results.map((r) => r.id)).toEqual(expect.arrayContaining(ids));
  });
});
