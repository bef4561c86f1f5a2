import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORUM_MESSAGES, ForumRecord, ForumRecordList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { findCourseStats } from './counts.repo.ts';
import { createForumWorld, minutesFromNow, postRecord, type ForumWorld } from './testing.ts';

let t: TestApp;
let w: ForumWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await createForumWorld(t);
});
afterAll(() => t.close());

const one = (id: number) => `/api/Forum/Record/${id}/`;
const listOf = async (token: string, query: Record<string, string> = {}) => {
  const res = await call(t, 'GET', '/api/Forum/Record/', {
    token,
    query: { course: String(w.course.id), ...query },
  });
  expect(res.status).toBe(200);
  return ForumRecordList.parse(res.body);
};

describe('POST Forum/Record/', () => {
  it('posts a discussion: stored as written, counted, read by its author', async () => {
    const before = await findCourseStats(t.ctx.db, w.course.id);
    const content = '# Hi\n\n<script>alert(1)</script> **bold**';
    const post = await postRecord(t, w.tokens.student, { course: w.course.id, title: ' Help ', content });
    expect(post).toMatchObject({
      title: 'Help',
      content,
      is_announcement: false,
      pinned: false,
      is_read: true,
      can_edit: true,
      comment_count: 0,
      parent_record: null,
      updated_by: w.users.student.id,
    });
    expect(post.author).toEqual({
      id: w.users.student.id,
      display_name: 'Test User',
      first_name: 'Test',
      last_name: 'User',
      role: 'student',
    });
    expect(post.published_at).not.toBeNull();
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual({
      ...before,
      topics: before.topics + 1,
    });
  });

  it('answers 400 "Post content is empty." for blank content', async () => {
    const res = await call(t, 'POST', '/api/Forum/Record/', {
      token: w.tokens.student,
      body: { course: w.course.id, title: 'x', content: ' \n\t ' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      detail: FORUM_MESSAGES.emptyContent,
      code: 'empty_content',
      content: [FORUM_MESSAGES.emptyContent],
    });
  });

  it('needs a title for a topic, and well-typed fields', async () => {
    const post = (body: unknown) => call(t, 'POST', '/api/Forum/Record/', { token: w.tokens.student, body });
    expect((await post({ course: w.course.id, content: 'x' })).json).toHaveProperty('title');
    expect((await post({ course: w.course.id, title: 'x' })).status).toBe(400);
    expect((await post({ course: 'abc', title: 'x', content: 'x' })).status).toBe(400);
    expect((await post({ course: w.course.id, title: 5, content: 'x' })).status).toBe(400);
    expect((await post({ course: w.course.id, title: 'x', content: 'x', extra: 1 })).status).toBe(400);
    expect((await post({ course: w.course.id, title: 'x', content: 'x', pinned: 'yes' })).status).toBe(400);
  });

  it('forbids students announcements, pins and schedules (403)', async () => {
    for (const extra of [
      { is_announcement: true },
      { pinned: true },
      { is_announcement: true, scheduled_at: minutesFromNow(60).toISOString() },
    ]) {
      const res = await call(t, 'POST', '/api/Forum/Record/', {
        token: w.tokens.student,
        body: { course: w.course.id, title: 'x', content: 'x', ...extra },
      });
      expect(res.status).toBe(403);
    }
  });

  it('answers 404 to non-members and for unknown courses', async () => {
    for (const [token, course] of [
      [w.tokens.otherStudent, w.course.id],
      [w.tokens.otherEditor, w.course.id],
      [w.tokens.staff, 999_999],
    ] as const) {
      const res = await call(t, 'POST', '/api/Forum/Record/', {
        token,
        body: { course, title: 'x', content: 'x' },
      });
      expect(res.status).toBe(404);
    }
  });

  it('schedules at least 10 minutes ahead, and only announcements', async () => {
    const post = (extra: object) =>
      call(t, 'POST', '/api/Forum/Record/', {
        token: w.tokens.editor,
        body: { course: w.course.id, title: 'x', content: 'x', ...extra },
      });
    const soon = await post({ is_announcement: true, scheduled_at: minutesFromNow(5).toISOString() });
    expect(soon.status).toBe(400);
    expect(soon.json).toHaveProperty('scheduled_at');
    const far = await post({ is_announcement: true, scheduled_at: minutesFromNow(400 * 1440).toISOString() });
    expect(far.status).toBe(400);
    const discussion = await post({ scheduled_at: minutesFromNow(60).toISOString() });
    expect(discussion.status).toBe(400);
    expect(discussion.json).toHaveProperty('scheduled_at');
  });

  it('comments on a topic: counts, activity, and no comments on comments', async () => {
    const topic = await postRecord(t, w.tokens.editor, { course: w.course.id, title: 'T', content: 'x' });
    const comment = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      parent_record: topic.id,
      title: 'ignored',
      content: 'a comment',
    });
    expect(comment).toMatchObject({ parent_record: topic.id, title: '', is_read: true, comment_count: 0 });
    const after = ForumRecord.parse((await call(t, 'GET', one(topic.id), { token: w.tokens.editor })).body);
    expect(after.comment_count).toBe(1);
    expect(Date.parse(after.last_activity_at)).toBeGreaterThanOrEqual(Date.parse(comment.created_at));

    const nested = await call(t, 'POST', '/api/Forum/Record/', {
      token: w.tokens.student,
      body: { course: w.course.id, parent_record: comment.id, content: 'nested' },
    });
    expect(nested.status).toBe(400);
    const unknown = await call(t, 'POST', '/api/Forum/Record/', {
      token: w.tokens.student,
      body: { course: w.course.id, parent_record: 999_999, content: 'x' },
    });
    expect(unknown.status).toBe(404);
    const onScheduled = await call(t, 'POST', '/api/Forum/Record/', {
      token: w.tokens.student,
      body: { course: w.course.id, parent_record: w.scheduled.id, content: 'x' },
    });
    expect(onScheduled.status).toBe(404);
    const pinnedComment = await call(t, 'POST', '/api/Forum/Record/', {
      token: w.tokens.editor,
      body: { course: w.course.id, parent_record: topic.id, content: 'x', pinned: true },
    });
    expect(pinnedComment.status).toBe(400);
  });
});

describe('GET/PUT/PATCH/DELETE Forum/Record/{id}/', () => {
  it('hides scheduled posts from students (404) and shows them to editors', async () => {
    expect((await call(t, 'GET', one(w.scheduled.id), { token: w.tokens.student })).status).toBe(404);
    const seen = await call(t, 'GET', one(w.scheduled.id), { token: w.tokens.editor });
    expect(seen.status).toBe(200);
    expect(seen.json).toMatchObject({ published_at: null, is_announcement: true });
    expect((await call(t, 'GET', one(999_999), { token: w.tokens.staff })).status).toBe(404);
    expect((await call(t, 'GET', one(w.topic.id), { token: w.tokens.otherStudent })).status).toBe(404);
  });

  it('lets authors edit their posts and sets updated_at/updated_by', async () => {
    const post = await postRecord(t, w.tokens.student, { course: w.course.id, title: 'Old', content: 'old' });
    const res = await call(t, 'PATCH', one(post.id), { token: w.tokens.student, body: { content: 'new' } });
    expect(res.status).toBe(200);
    const edited = ForumRecord.parse(res.body);
    expect(edited).toMatchObject({ title: 'Old', content: 'new', updated_by: w.users.student.id });
    expect(Date.parse(edited.updated_at)).toBeGreaterThanOrEqual(Date.parse(post.updated_at));
    const put = await call(t, 'PUT', one(post.id), {
      token: w.tokens.editor,
      body: { title: 'Edited', content: 'by the editor' },
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ title: 'Edited', updated_by: w.users.editor.id });
    const blank = await call(t, 'PATCH', one(post.id), { token: w.tokens.student, body: { content: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.json.detail).toBe(FORUM_MESSAGES.emptyContent);
    const bad = await call(t, 'PATCH', one(post.id), { token: w.tokens.student, body: { title: 7 } });
    expect(bad.status).toBe(400);
  });

  it("answers a student 403 for a classmate's post and 404 for a hidden one", async () => {
    const other = await call(t, 'PATCH', one(w.announcement.id), {
      token: w.tokens.student,
      body: { content: 'mine now' },
    });
    expect(other.status).toBe(403);
    const hidden = await call(t, 'PATCH', one(w.scheduled.id), {
      token: w.tokens.student,
      body: { content: 'mine now' },
    });
    expect(hidden.status).toBe(404);
    expect((await call(t, 'DELETE', one(w.announcement.id), { token: w.tokens.student })).status).toBe(403);
  });

  it('keeps students from pinning, but their edits keep an editor’s pin', async () => {
    const post = await postRecord(t, w.tokens.student, { course: w.course.id, title: 'P', content: 'p' });
    expect(
      (await call(t, 'PATCH', one(post.id), { token: w.tokens.student, body: { pinned: true } })).status,
    ).toBe(403);
    await call(t, 'PATCH', one(post.id), { token: w.tokens.editor, body: { pinned: true } });
    const put = await call(t, 'PUT', one(post.id), {
      token: w.tokens.student,
      body: { title: 'P2', content: 'p2' },
    });
    expect(put.status).toBe(200);
    expect(put.json.pinned).toBe(true);
  });

  it('moves a waiting schedule, refuses to change a published one, publishes on null', async () => {
    const waiting = await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      title: 'Later',
      content: 'x',
      is_announcement: true,
      scheduled_at: minutesFromNow(30).toISOString(),
    });
    const moved = await call(t, 'PATCH', one(waiting.id), {
      token: w.tokens.editor,
      body: { scheduled_at: minutesFromNow(90).toISOString() },
    });
    expect(moved.status).toBe(200);
    const tooSoon = await call(t, 'PATCH', one(waiting.id), {
      token: w.tokens.editor,
      body: { scheduled_at: minutesFromNow(5).toISOString() },
    });
    expect(tooSoon.status).toBe(400);
    const before = await findCourseStats(t.ctx.db, w.course.id);
    const now = await call(t, 'PATCH', one(waiting.id), {
      token: w.tokens.editor,
      body: { scheduled_at: null },
    });
    expect(now.status).toBe(200);
    expect(now.json.published_at).not.toBeNull();
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual({
      topics: before.topics + 1,
      announcements: before.announcements + 1,
    });
    const change = await call(t, 'PATCH', one(waiting.id), {
      token: w.tokens.editor,
      body: { scheduled_at: minutesFromNow(120).toISOString() },
    });
    expect(change.status).toBe(400);
    expect(change.json).toHaveProperty('scheduled_at');
  });

  it('deletes a topic with its comments and fixes the counters', async () => {
    const topic = await postRecord(t, w.tokens.student, { course: w.course.id, title: 'Gone', content: 'x' });
    const c1 = await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      parent_record: topic.id,
      content: 'c',
    });
    const c2 = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      parent_record: topic.id,
      content: 'd',
    });
    expect((await call(t, 'DELETE', one(c2.id), { token: w.tokens.student })).status).toBe(204);
    const left = await call(t, 'GET', one(topic.id), { token: w.tokens.student });
    expect(left.json.comment_count).toBe(1);
    const before = await findCourseStats(t.ctx.db, w.course.id);
    expect((await call(t, 'DELETE', one(topic.id), { token: w.tokens.editor })).status).toBe(204);
    expect((await call(t, 'GET', one(c1.id), { token: w.tokens.editor })).status).toBe(404);
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual({ ...before, topics: before.topics - 1 });
    expect((await call(t, 'DELETE', one(topic.id), { token: w.tokens.editor })).status).toBe(404);
  });
});

describe('Forum/Record/{id}/announcement/', () => {
  it('converts a discussion both ways (editors), keeping the counters', async () => {
    const topic = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      title: 'News?',
      content: 'x',
    });
    const before = await findCourseStats(t.ctx.db, w.course.id);
    const url = `${one(topic.id)}announcement/`;
    expect((await call(t, 'PUT', url, { token: w.tokens.student, body: {} })).status).toBe(403);
    const made = await call(t, 'PUT', url, { token: w.tokens.editor, body: { pinned: true } });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ is_announcement: true, pinned: true });
    expect((await findCourseStats(t.ctx.db, w.course.id)).announcements).toBe(before.announcements + 1);
    const scheduled = await call(t, 'PUT', url, {
      token: w.tokens.editor,
      body: { scheduled_at: minutesFromNow(60).toISOString() },
    });
    expect(scheduled.status).toBe(400);
    const back = await call(t, 'DELETE', url, { token: w.tokens.editor });
    expect(back.status).toBe(200);
    expect(back.json.is_announcement).toBe(false);
    expect(await findCourseStats(t.ctx.db, w.course.id)).toEqual(before);
    const comment = await call(t, 'PUT', `${one(w.comment.id)}announcement/`, {
      token: w.tokens.editor,
      body: {},
    });
    expect(comment.status).toBe(400);
  });
});

describe('lists', () => {
  it('lists pinned first, never scheduled ones, and pages by cursor like by offset', async () => {
    for (let i = 0; i < 7; i += 1) {
      await postRecord(t, w.tokens.student, { course: w.course.id, title: `Page ${i}`, content: 'p' });
    }
    const all = await listOf(w.tokens.editor, { limit: '100' });
    expect(all.results[0]?.pinned).toBe(true);
    expect(all.results.some((r) => r.id === w.scheduled.id)).toBe(false);
    expect(all.count).toBe(all.results.length);
    const byOffset: number[] = [];
    for (let offset = 0; offset < all.count; offset += 3) {
      byOffset.push(
        ...(await listOf(w.tokens.student, { limit: '3', offset: String(offset) })).results.map((r) => r.id),
      );
    }
    const byCursor: number[] = [];
    let cursor: string | null = null;
    do {
      const page: ForumRecordList = await listOf(w.tokens.student, {
        limit: '3',
        ...(cursor ? { cursor } : {}),
      });
      byCursor.push(...page.results.map((r) => r.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(byCursor).toEqual(byOffset);
    expect(byCursor).toEqual(all.results.map((r) => r.id));
    const bad = await call(t, 'GET', '/api/Forum/Record/', {
      token: w.tokens.student,
      query: { course: String(w.course.id), cursor: 'nonsense' },
    });
    expect(bad.status).toBe(400);
  });

  it('answers the same standing and counts on a page with rows and on one past the end', async () => {
    const first = await listOf(w.tokens.student, { limit: '2' });
    const past = await listOf(w.tokens.student, { limit: '2', offset: '10000' });
    expect(first.results).toHaveLength(2);
    expect(past.results).toEqual([]);
    expect(past.count).toBe(first.count);
    expect(past.unread_count).toBe(first.unread_count);
    const unread = await listOf(w.tokens.student, { unread_only: 'true', limit: '2' });
    expect(unread.count).toBe(first.unread_count);
    // A page with rows, an empty one, and a search (probe or index): outsiders 404, as for no course.
    const refused = [
      [w.tokens.otherStudent, w.course.id, {}],
      [w.tokens.otherEditor, w.course.id, { offset: '10000' }],
      [w.tokens.otherStudent, w.course.id, { full_text_search: 'list' }],
      [w.tokens.staff, 999_999, {}],
    ] as const;
    for (const [token, course, query] of refused) {
      const res = await call(t, 'GET', '/api/Forum/Record/', {
        token,
        query: { ...query, course: String(course) },
      });
      expect(res.status, JSON.stringify(query)).toBe(404);
    }
  });

  it('shows scheduled announcements to editors only', async () => {
    const url = '/api/Forum/Record/announcements/';
    const query = { course: String(w.course.id), scheduled_ones: 'true' };
    expect((await call(t, 'GET', url, { token: w.tokens.student, query })).status).toBe(403);
    const res = await call(t, 'GET', url, { token: w.tokens.editor, query });
    const page = ForumRecordList.parse(res.body);
    expect(page.results.map((r) => r.id)).toContain(w.scheduled.id);
    expect(page.results.every((r) => r.published_at === null)).toBe(true);
    const published = ForumRecordList.parse(
      (await call(t, 'GET', url, { token: w.tokens.student, query: { course: String(w.course.id) } })).body,
    );
    expect(published.results.every((r) => r.is_announcement && r.published_at !== null)).toBe(true);
    expect(published.results.map((r) => r.id)).toContain(w.announcement.id);
  });
});
