import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NotificationList, NotificationSettings, UnreadCount } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { forumRecords } from '../../db/schema-forum.ts';
import { notifications } from '../../db/schema-notifications.ts';
import { publishDueAnnouncements } from '../forum/publish.ts';
import { createForumWorld, minutesFromNow, postRecord, type ForumWorld } from '../forum/testing.ts';

/*
 * The bell's side of notifications (docs/notifications.md): the forum's events make one row per
 * recipient, the list pages newest first, read marks are the caller's own, settings are validated.
 */

let t: TestApp;
let w: ForumWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await createForumWorld(t);
});
afterAll(() => t.close());

const list = async (token: string | undefined, query: Record<string, string> = {}) => {
  const res = await call(t, 'GET', '/api/Notification/', { token, query });
  expect(res.status).toBe(200);
  return NotificationList.parse(res.body);
};
const unread = async (token: string | undefined) =>
  UnreadCount.parse((await call(t, 'GET', '/api/Notification/unread/', { token })).body).unread;

const announce = (title: string, extra: Record<string, unknown> = {}) =>
  postRecord(t, w.tokens.editor, {
    course: w.course.id,
    title,
    content: 'Read me.',
    is_announcement: true,
    ...extra,
  });

describe('announcements', () => {
  it("tell the course's students once, not their author, and name the course and the link", async () => {
    const before = await unread(w.tokens.student);
    const post = await announce('Exam room changed');
    expect(await unread(w.tokens.student)).toBe(before + 1);
    const [first] = (await list(w.tokens.student)).results;
    expect(first).toMatchObject({
      kind: 'announcement',
      course_id: w.course.id,
      course_title: w.course.title,
      link: `/course/${w.course.id}/forum/${post.id}`,
      facts: { title: 'Exam room changed' },
      read_at: null,
    });
    expect(first!.facts.actor).toBeDefined();
    const mine = await list(w.tokens.editor);
    expect(mine.results.some((n) => n.link.endsWith(`/forum/${post.id}`))).toBe(false);
  });

  it('tell when a scheduled one goes out, once however many publishers run', async () => {
    const post = await announce('Scheduled', { scheduled_at: minutesFromNow(30).toISOString() });
    const key = `announcement:${post.id}`;
    const rows = () => t.ctx.db.select().from(notifications).where(eq(notifications.eventKey, key));
    expect(await rows()).toHaveLength(0);
    await t.ctx.db
      .update(forumRecords)
      .set({ scheduledAt: minutesFromNow(-1) })
      .where(eq(forumRecords.id, post.id));
    await Promise.all([publishDueAnnouncements(t.ctx), publishDueAnnouncements(t.ctx)]);
    const made = await rows();
    expect(made.length).toBeGreaterThan(0);
    expect(new Set(made.map((n) => n.userId)).size).toBe(made.length);
    expect(made.every((n) => n.userId !== w.users.editor.id)).toBe(true);
  });

  it('tell a topic made an announcement once, even when it is made one again', async () => {
    const topic = await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      title: 'Became news',
      content: 'x',
    });
    const url = `/api/Forum/Record/${topic.id}/announcement/`;
    expect((await call(t, 'PUT', url, { token: w.tokens.editor, body: {} })).status).toBe(200);
    expect((await call(t, 'DELETE', url, { token: w.tokens.editor })).status).toBe(200);
    expect((await call(t, 'PUT', url, { token: w.tokens.editor, body: {} })).status).toBe(200);
    const rows = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.eventKey, `announcement:${topic.id}`));
    expect(rows.filter((n) => n.userId === w.users.student.id)).toHaveLength(1);
  });
});

describe('forum replies', () => {
  it("tell the topic's author of a comment by someone else, not of their own", async () => {
    const topic = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      title: 'How to loop?',
      content: 'x',
    });
    const before = await unread(w.tokens.student);
    await postRecord(t, w.tokens.student, { course: w.course.id, parent_record: topic.id, content: 'Also…' });
    expect(await unread(w.tokens.student)).toBe(before);
    await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      parent_record: topic.id,
      content: 'Use for.',
    });
    expect(await unread(w.tokens.student)).toBe(before + 1);
    const [first] = (await list(w.tokens.student)).results;
    expect(first).toMatchObject({ kind: 'forum_reply', facts: { title: 'How to loop?' } });
  });
});

describe('the list and read marks', () => {
  it('pages newest first with a cursor, and filters unread', async () => {
    for (let i = 0; i < 3; i += 1) await announce(`Page ${i}`);
    const first = await list(w.tokens.student, { page_size: '2' });
    expect(first.results).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = await list(w.tokens.student, { page_size: '2', cursor: first.next_cursor! });
    expect(second.results[0]!.id).toBeLessThan(first.results[1]!.id);
    expect(first.results[0]!.facts.title).toBe('Page 2');
    const bad = await call(t, 'GET', '/api/Notification/', {
      token: w.tokens.student,
      query: { cursor: 'x1' },
    });
    expect(bad.status).toBe(400);
  });

  it("mark one read (the caller's own only: 404 otherwise, nothing changed) and all read", async () => {
    const [first] = (await list(w.tokens.student, { unread: 'true' })).results;
    const other = await call(t, 'POST', `/api/Notification/${first!.id}/read/`, { token: w.tokens.editor });
    expect(other.status).toBe(404);
    expect((await list(w.tokens.student)).results.find((n) => n.id === first!.id)!.read_at).toBeNull();
    const before = await unread(w.tokens.student);
    const mine = await call(t, 'POST', `/api/Notification/${first!.id}/read/`, { token: w.tokens.student });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ marked: 1, unread: before - 1 });
    expect(
      (await call(t, 'POST', '/api/Notification/999999999/read/', { token: w.tokens.student })).status,
    ).toBe(404);
    const all = await call(t, 'POST', '/api/Notification/read-all/', { token: w.tokens.student, body: {} });
    expect(all.body).toEqual({ marked: before - 1, unread: 0 });
    expect((await list(w.tokens.student, { unread: 'true' })).results).toEqual([]);
  });

  it('mark read only those about one page', async () => {
    const a = await announce('About A');
    await announce('About B');
    const res = await call(t, 'POST', '/api/Notification/read-all/', {
      token: w.tokens.student,
      body: { link: `/course/${w.course.id}/forum/${a.id}` },
    });
    expect(res.body).toEqual({ marked: 1, unread: 1 });
  });

  it('refuse an unknown field and a malformed body', async () => {
    const res = await call(t, 'POST', '/api/Notification/read-all/', {
      token: w.tokens.student,
      body: { everything: true },
    });
    expect(res.status).toBe(400);
    const res2 = await call(t, 'POST', '/api/Notification/read-all/', {
      token: w.tokens.student,
      body: { course_id: 'seven' },
    });
    expect(res2.status).toBe(400);
  });

  it('give a newcomer an empty list', async () => {
    const stranger = await createUser(t);
    const token = await tokenFor(t, stranger);
    expect(await list(token)).toEqual({ results: [], next_cursor: null, unread: 0 });
  });
});

describe('settings', () => {
  const settings = async (token: string) =>
    NotificationSettings.parse((await call(t, 'GET', '/api/NotificationSettings/', { token })).body);

  it('start from the defaults: announcements and deadlines at once, the rest in a digest at 08:00', async () => {
    const s = await settings(w.tokens.student);
    expect(s.email).toMatchObject({
      announcement: 'immediately',
      deadline_soon: 'immediately',
      forum_reply: 'digest',
    });
    expect(s).toMatchObject({ digest_hour: 8, time_zone: t.config.DEFAULT_TIME_ZONE, muted_course_ids: [] });
  });

  it('save a kind, the hour, the zone and muted courses, keeping the rest', async () => {
    const res = await call(t, 'PUT', '/api/NotificationSettings/', {
      token: w.tokens.student,
      body: {
        email: { forum_reply: 'off' },
        digest_hour: 18,
        time_zone: 'america/los_angeles',
        muted_course_ids: [w.course.id],
      },
    });
    expect(res.status).toBe(200);
    const again = await call(t, 'PUT', '/api/NotificationSettings/', {
      token: w.tokens.student,
      body: { email: { announcement: 'digest' } },
    });
    expect(NotificationSettings.parse(again.body)).toMatchObject({
      email: { forum_reply: 'off', announcement: 'digest', deadline_soon: 'immediately' },
      digest_hour: 18,
      time_zone: 'America/Los_Angeles',
      muted_course_ids: [w.course.id],
    });
  });

  it('refuse an unknown kind, a bad choice, an hour of 24, an unknown zone, a course not theirs', async () => {
    const before = await settings(w.tokens.student);
    for (const body of [
      { email: { telegram: 'off' } },
      { email: { announcement: 'weekly' } },
      { digest_hour: 24 },
      { time_zone: 'Mars/Olympus' },
      { muted_course_ids: [w.otherCourse.id] },
      { muted_course_ids: ['1'] },
    ]) {
      const res = await call(t, 'PUT', '/api/NotificationSettings/', { token: w.tokens.student, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const stranger = await call(t, 'PUT', '/api/NotificationSettings/', {
      token: w.tokens.student,
      body: { muted_course_ids: [w.otherCourse.id] },
    });
    expect(stranger.json).toMatchObject({ code: 'not_a_member' });
    expect(await settings(w.tokens.student)).toEqual(before);
  });

  it("let the course's editors switch the new-member notice, nobody else", async () => {
    const url = `/api/Course/${w.course.id}/notification-settings/`;
    expect((await call(t, 'GET', url, { token: w.tokens.editor })).body).toEqual({
      notify_editors_of_new_members: false,
    });
    const put = await call(t, 'PUT', url, {
      token: w.tokens.editor,
      body: { notify_editors_of_new_members: true },
    });
    expect(put.body).toEqual({ notify_editors_of_new_members: true });
    expect(
      (await call(t, 'PUT', url, { token: w.tokens.student, body: { notify_editors_of_new_members: false } }))
        .status,
    ).toBe(403);
    expect((await call(t, 'GET', url, { token: w.tokens.otherEditor })).status).toBe(404);
  });
});
