import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForumCommentList, ForumRecordList, ForumUpvoteUsers } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { DEMO_PASSWORD, findDemoCourse, seedDemoData } from '../../demo/seed.ts';
import { DEMO_FORUM_TITLES } from './demo.ts';
import { findCourseStats } from './counts.repo.ts';
import { countTopics } from './lists.repo.ts';

describe('demo forum', () => {
  let t: TestApp;
  let course: number;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoData(t.ctx);
    course = (await findDemoCourse(t.ctx))!.id;
  });
  afterAll(() => t.close());

  const signIn = async (email: string) => {
    const res = await call(t, 'POST', '/api/Auth/Token/', { body: { email, password: DEMO_PASSWORD } });
    return String(res.json.access);
  };
  const list = async (token: string, query: Record<string, string> = {}, path = 'Forum/Record/') => {
    const res = await call(t, 'GET', `/api/${path}`, { token, query: { course: String(course), ...query } });
    expect(res.status).toBe(200);
    return ForumRecordList.parse(res.body);
  };

  it('shows a student the pinned welcome first, the announcements, the discussions, not the scheduled one', async () => {
    const taro = await signIn('student1@example.com');
    const all = await list(taro);
    expect(all.results[0]).toMatchObject({ title: DEMO_FORUM_TITLES.welcome, pinned: true });
    expect(all.results[0]!.content).toContain('```python');
    expect(all.results.map((r) => r.title)).not.toContain(DEMO_FORUM_TITLES.scheduled);
    expect(all.count).toBe(6);
    // Taro wrote two of the topics and commented on a third: they are read.
    expect(all.unread_count).toBe(3);
    const announcements = await list(taro, {}, 'Forum/Record/announcements/');
    expect(announcements.results.map((r) => r.title)).toEqual([
      DEMO_FORUM_TITLES.welcome,
      DEMO_FORUM_TITLES.assignment,
    ]);

    const editor = await signIn('editor@example.com');
    const scheduled = await list(editor, { scheduled_ones: 'true' }, 'Forum/Record/announcements/');
    expect(scheduled.results.map((r) => r.title)).toEqual([DEMO_FORUM_TITLES.scheduled]);
    expect(Date.parse(scheduled.results[0]!.scheduled_at!)).toBeGreaterThan(Date.now() + 2 * 86_400_000);
  });

  it('keeps every counter equal to the rows', async () => {
    const stats = await findCourseStats(t.ctx.db, course);
    const viewerId = 0;
    expect(stats.topics).toBe(await countTopics(t.ctx.db, { courseId: course, viewerId }));
    expect(stats.announcements).toBe(
      await countTopics(t.ctx.db, { courseId: course, viewerId, isAnnouncement: true }),
    );
    expect(stats).toEqual({ topics: 6, announcements: 2 });

    const token = await signIn('student2@example.com');
    for (const topic of (await list(token)).results) {
      const comments = await call(t, 'GET', '/api/Forum/Comment/', {
        token,
        query: { parent_record: String(topic.id) },
      });
      const listed = ForumCommentList.parse(comments.body);
      expect(topic.comment_count).toBe(listed.count);
      const newest = [topic.published_at!, ...listed.results.map((c) => c.created_at)].sort().at(-1);
      expect(topic.last_activity_at).toBe(newest);
      for (const record of [topic, ...listed.results]) {
        const voters = await call(t, 'GET', `/api/Forum/ForumUpvoteUsers/${record.id}/`, { token });
        expect(ForumUpvoteUsers.parse(voters.body).count).toBe(record.upvotes);
      }
    }
  });

  it('finds the demo posts by Japanese and by English words', async () => {
    const token = await signIn('student3@example.com');
    const titles = async (text: string) =>
      (await list(token, { full_text_search: text })).results.map((r) => r.title);
    expect(await titles('内包表記')).toEqual([DEMO_FORUM_TITLES.comprehension]);
    expect(await titles('再帰')).toEqual([DEMO_FORUM_TITLES.recursion]);
    expect(await titles('dictionary')).toEqual([DEMO_FORUM_TITLES.sorting]);
    expect(await titles('python')).toContain(DEMO_FORUM_TITLES.welcome);
  });
});
