import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForumCommentList,
  ForumRecordList,
  ForumTemplateList,
  ForumUpvoteUsers,
  ForumUserStatus,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent } from '../../../test/factories.ts';
import { createForumWorld, postRecord, type ForumWorld } from './testing.ts';

/* Upvotes, read state, search, comments and templates. */

let t: TestApp;
let w: ForumWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await createForumWorld(t);
});
afterAll(() => t.close());

const list = async (token: string, query: Record<string, string> = {}) =>
  ForumRecordList.parse(
    (
      await call(t, 'GET', '/api/Forum/Record/', {
        token,
        query: { course: String(w.course.id), limit: '100', ...query },
      })
    ).body,
  );

describe('upvotes', () => {
  it('are idempotent both ways and list who upvoted', async () => {
    const url = `/api/Forum/Record/${w.topic.id}/upvote/`;
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, 'PUT', url, { token: w.tokens.editor });
      expect(res.json).toEqual({ id: w.topic.id, upvotes: 1, upvoted: true });
    }
    await call(t, 'PUT', url, { token: w.tokens.student });
    const users = ForumUpvoteUsers.parse(
      (await call(t, 'GET', `/api/Forum/ForumUpvoteUsers/${w.topic.id}/`, { token: w.tokens.student })).body,
    );
    expect(users.count).toBe(2);
    expect(users.results.map((u) => u.id)).toEqual([w.users.student.id, w.users.editor.id]);
    expect(users.results[1]?.role).toBe('editor');
    // An editor of another course is a student here.
    await addStudent(t, w.course.id, w.users.otherEditor.id);
    const mixed = await postRecord(t, w.tokens.otherEditor, {
      course: w.course.id,
      title: 'Hi',
      content: 'x',
    });
    expect(mixed.author.role).toBe('student');
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, 'DELETE', url, { token: w.tokens.editor });
      expect(res.json).toEqual({ id: w.topic.id, upvotes: 1, upvoted: false });
    }
    const seen = await call(t, 'GET', `/api/Forum/Record/${w.topic.id}/`, { token: w.tokens.student });
    expect(seen.json).toMatchObject({ upvotes: 1, upvoted: true });
  });

  it('hide scheduled posts and other courses (404)', async () => {
    const scheduled = `/api/Forum/Record/${w.scheduled.id}/upvote/`;
    expect((await call(t, 'PUT', scheduled, { token: w.tokens.student })).status).toBe(404);
    const upvoters = `/api/Forum/ForumUpvoteUsers/${w.scheduled.id}/`;
    expect((await call(t, 'GET', upvoters, { token: w.tokens.student })).status).toBe(404);
    const topic = `/api/Forum/Record/${w.topic.id}/upvote/`;
    expect((await call(t, 'PUT', topic, { token: w.tokens.otherStudent })).status).toBe(404);
    expect((await call(t, 'PUT', '/api/Forum/Record/999999/upvote/', { token: w.tokens.staff })).status).toBe(
      404,
    );
  });
});

describe('read state', () => {
  it('counts unread topics down on read and up on unread', async () => {
    const reader = w.tokens.staff;
    const start = await list(reader);
    // Staff wrote nothing: every published topic is unread, and the scheduled one is not counted.
    expect(start.unread_count).toBe(start.count);
    const status = (id: number, is_read: boolean) =>
      call(t, 'PUT', `/api/Forum/ForumUserStatus/${id}/`, { token: reader, body: { is_read } });
    const read = ForumUserStatus.parse((await status(w.topic.id, true)).body);
    expect(read).toEqual({ id: w.topic.id, is_read: true, unread_count: start.unread_count - 1 });
    expect(ForumUserStatus.parse((await status(w.topic.id, true)).body).unread_count).toBe(read.unread_count);
    const unreadOnly = await list(reader, { unread_only: 'true' });
    expect(unreadOnly.count).toBe(read.unread_count);
    expect(unreadOnly.results.map((r) => r.id)).not.toContain(w.topic.id);
    const after = await list(reader);
    expect(after.results.find((r) => r.id === w.topic.id)?.is_read).toBe(true);
    const unread = ForumUserStatus.parse((await status(w.topic.id, false)).body);
    expect(unread.unread_count).toBe(start.unread_count);
    // Editors can mark the scheduled one, which still does not count until it is published.
    expect(ForumUserStatus.parse((await status(w.scheduled.id, true)).body).unread_count).toBe(
      start.unread_count,
    );
  });

  it('refuses comments (400), hidden topics and bad bodies', async () => {
    const put = (id: number, token: string, body: unknown) =>
      call(t, 'PUT', `/api/Forum/ForumUserStatus/${id}/`, { token, body });
    expect((await put(w.comment.id, w.tokens.student, { is_read: true })).status).toBe(400);
    expect((await put(w.scheduled.id, w.tokens.student, { is_read: true })).status).toBe(404);
    expect((await put(w.topic.id, w.tokens.otherStudent, { is_read: true })).status).toBe(404);
    expect((await put(w.topic.id, w.tokens.student, { is_read: 'yes' })).status).toBe(400);
    expect((await put(w.topic.id, w.tokens.student, {})).status).toBe(400);
  });
});

describe('search', () => {
  it('finds Japanese without spaces and English by prefix, on the database', async () => {
    const course = w.course.id;
    const ja = await postRecord(t, w.tokens.student, {
      course,
      title: 'Pythonのリストについて',
      content: '二次元配列をリスト内包表記で作る方法',
    });
    const en = await postRecord(t, w.tokens.student, {
      course,
      title: 'Sorting algorithms',
      content: "What's the fastest? (quick|merge) & <heap>",
    });
    const ids = async (text: string) =>
      (await list(w.tokens.student, { full_text_search: text })).results.map((r) => r.id);
    expect(await ids('内包')).toContain(ja.id);
    expect(await ids('包表記')).toContain(ja.id);
    expect(await ids('リスト内包表記')).toContain(ja.id);
    expect(await ids('表')).toContain(ja.id);
    expect(await ids('Pythonのリスト')).toContain(ja.id);
    expect(await ids('表記内包')).not.toContain(ja.id);
    expect(await ids('algo')).toEqual([en.id]);
    expect(await ids('SORT algorithms')).toEqual([en.id]);
    expect(await ids("what's")).toEqual([en.id]);
    // Operators and quotes in the text are just separators.
    expect(await ids("quick|merge & <heap> ' \\ :*")).toEqual([en.id]);
    expect(await ids('zzz')).toEqual([]);
    const punctuation = await list(w.tokens.student, { full_text_search: '!!!' });
    expect(punctuation).toMatchObject({ count: 0, count_exact: true, results: [] });
    const found = await list(w.tokens.student, { full_text_search: 'algo' });
    expect(found).toMatchObject({ count: 1, count_exact: true });
  });

  it('stores the literal of long content (positions clamped) and still finds its words', async () => {
    const post = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      title: 'Long',
      content: `${'ab '.repeat(16_000)}tailword 末尾の単語`,
    });
    const ids = async (text: string) =>
      (await list(w.tokens.student, { full_text_search: text })).results.map((r) => r.id);
    expect(await ids('tailword')).toContain(post.id);
    expect(await ids('単語')).toContain(post.id);
  });

  it('pages a search the same way whether the newest topics or the search index answer', async () => {
    const course = w.course.id;
    const made: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(
        (await postRecord(t, w.tokens.student, { course, title: `Graphs ${i}`, content: 'ダイクストラ法' }))
          .id,
      );
      await postRecord(t, w.tokens.student, { course, title: `Other ${i}`, content: 'nothing here' });
    }
    const newestFirst = [...made].reverse();
    // Two per page: the walk over the newest topics fills pages 1 and 2; page 3 holds one, so the walk
    // comes up short and the search index answers it.
    const first = await list(w.tokens.student, { full_text_search: 'ダイクストラ', limit: '2' });
    expect(first.results.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
    expect(first).toMatchObject({ count: 5, count_exact: true });
    const second = await list(w.tokens.student, {
      full_text_search: 'ダイクストラ',
      limit: '2',
      cursor: first.next_cursor!,
    });
    expect(second.results.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
    const third = await list(w.tokens.student, {
      full_text_search: 'ダイクストラ',
      limit: '2',
      cursor: second.next_cursor!,
    });
    expect(third.results.map((r) => r.id)).toEqual(newestFirst.slice(4));
    expect(third.next_cursor).toBeNull();
    const byOffset = await list(w.tokens.student, {
      full_text_search: 'ダイクストラ',
      limit: '2',
      offset: '2',
    });
    expect(byOffset.results.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
  });

  it('pages a word that matches over 100 topics from the newest ones, with the count capped', async () => {
    const course = w.course.id;
    const made: number[] = [];
    for (let i = 0; i < 103; i += 1) {
      const post = await postRecord(t, w.tokens.student, {
        course,
        title: `Memo ${i}`,
        content: i % 2 === 0 ? 'メモ化再帰で解けます' : 'Use memoization here.',
      });
      made.push(post.id);
      if (i % 10 === 0) await postRecord(t, w.tokens.student, { course, title: `Noise ${i}`, content: 'x' });
    }
    const newestFirst = [...made].reverse();
    for (const word of ['memoiz', 'メモ化']) {
      const matching = newestFirst.filter(
        (_, i) => (word === 'memoiz') === ((made.length - 1 - i) % 2 === 1),
      );
      const first = await list(w.tokens.student, { full_text_search: word, limit: '20' });
      expect(first).toMatchObject({ count: word === 'memoiz' ? 51 : 52, count_exact: true });
      expect(first.results.map((r) => r.id)).toEqual(matching.slice(0, 20));
    }
    const both = await list(w.tokens.student, { full_text_search: 'memo', limit: '20' });
    expect(both).toMatchObject({ count: 100, count_exact: false });
    expect(both.results.map((r) => r.id)).toEqual(newestFirst.slice(0, 20));
    const second = await list(w.tokens.student, {
      full_text_search: 'memo',
      limit: '20',
      cursor: both.next_cursor!,
    });
    expect(second.results.map((r) => r.id)).toEqual(newestFirst.slice(20, 40));
    const byOffset = await list(w.tokens.student, { full_text_search: 'memo', limit: '20', offset: '20' });
    expect(byOffset.results.map((r) => r.id)).toEqual(newestFirst.slice(20, 40));
    // The last page within the first 101 matches comes from the walk over the newest topics; the
    // next one (by cursor or by offset) from the search index: the seam holds.
    const fifth = await list(w.tokens.student, { full_text_search: 'memo', limit: '20', offset: '80' });
    expect(fifth).toMatchObject({ count: 100, count_exact: false });
    expect(fifth.results.map((r) => r.id)).toEqual(newestFirst.slice(80, 100));
    const sixth = await list(w.tokens.student, {
      full_text_search: 'memo',
      limit: '20',
      cursor: fifth.next_cursor!,
    });
    expect(sixth.results.map((r) => r.id)).toEqual(newestFirst.slice(100));
    expect(sixth.next_cursor).toBeNull();
    const sixthByOffset = await list(w.tokens.student, {
      full_text_search: 'memo',
      limit: '20',
      offset: '100',
    });
    expect(sixthByOffset.results.map((r) => r.id)).toEqual(newestFirst.slice(100));
  });

  it('answers a word remembered as rare alike once it has become common', async () => {
    // Found nowhere, its probe comes up short and is remembered (search-hints.ts); 105 posts later the
    // search index answers it at once — the same pages the probe would give.
    const course = w.course.id;
    const word = 'heapq';
    expect(await list(w.tokens.student, { full_text_search: word })).toMatchObject({
      count: 0,
      count_exact: true,
    });
    const made: number[] = [];
    for (let i = 0; i < 105; i += 1) {
      const post = await postRecord(t, w.tokens.student, {
        course,
        title: `Queue ${i}`,
        content: 'import heapq',
      });
      made.push(post.id);
    }
    const newestFirst = [...made].reverse();
    const first = await list(w.tokens.student, { full_text_search: word, limit: '20' });
    expect(first).toMatchObject({ count: 100, count_exact: false });
    expect(first.results.map((r) => r.id)).toEqual(newestFirst.slice(0, 20));
    const third = await list(w.tokens.student, { full_text_search: word, limit: '20', offset: '40' });
    expect(third.results.map((r) => r.id)).toEqual(newestFirst.slice(40, 60));
  });

  it('never finds scheduled posts for students', async () => {
    const ids = async (token: string) =>
      (await list(token, { full_text_search: 'Exam results' })).results.map((r) => r.id);
    expect(await ids(w.tokens.student)).not.toContain(w.scheduled.id);
  });
});

describe('GET Forum/Comment/', () => {
  it('lists, orders and searches the comments of a visible topic', async () => {
    const topic = await postRecord(t, w.tokens.student, { course: w.course.id, title: 'C', content: 'c' });
    const a = await postRecord(t, w.tokens.editor, {
      course: w.course.id,
      parent_record: topic.id,
      content: 'first answer',
    });
    const b = await postRecord(t, w.tokens.student, {
      course: w.course.id,
      parent_record: topic.id,
      content: '二番目の返信',
    });
    const get = (query: Record<string, string>, token = w.tokens.student) =>
      call(t, 'GET', '/api/Forum/Comment/', { token, query: { parent_record: String(topic.id), ...query } });
    const page = ForumCommentList.parse((await get({})).body);
    expect(page.results.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(page.count).toBe(2);
    expect(ForumCommentList.parse((await get({ ordering: '-created_at' })).body).results[0]?.id).toBe(b.id);
    expect(ForumCommentList.parse((await get({ search: '返信' })).body).results.map((r) => r.id)).toEqual([
      b.id,
    ]);
    const second = ForumCommentList.parse((await get({ limit: '1', offset: '1' })).body);
    expect(second).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(second.results.map((r) => r.id)).toEqual([b.id]);
    expect((await get({ ordering: 'title' })).status).toBe(400);
    expect((await get({}, w.tokens.otherStudent)).status).toBe(404);
    const hidden = await call(t, 'GET', '/api/Forum/Comment/', {
      token: w.tokens.student,
      query: { parent_record: String(w.scheduled.id) },
    });
    expect(hidden.status).toBe(404);
    const ofComment = await call(t, 'GET', '/api/Forum/Comment/', {
      token: w.tokens.student,
      query: { parent_record: String(a.id) },
    });
    expect(ofComment.status).toBe(400);
  });
});

describe('GET Forum/Templates/', () => {
  it('answers in the asked language, else the user’s; announcements for editors only', async () => {
    const get = (token: string, lang?: string) =>
      call(t, 'GET', '/api/Forum/Templates/', {
        token,
        query: { course: String(w.course.id), ...(lang ? { lang } : {}) },
      });
    const en = ForumTemplateList.parse((await get(w.tokens.editor, 'en-US')).body);
    expect(en.map((x) => x.name)).toEqual([
      'Question',
      'Bug report / error help',
      'Study group',
      'Assignment released',
      'Schedule change',
      'Exam info',
    ]);
    const ja = ForumTemplateList.parse((await get(w.tokens.student)).body);
    expect(ja.map((x) => x.name)).toEqual(['質問', 'バグ報告・エラーの相談', '勉強会の募集']);
    expect((await get(w.tokens.otherStudent)).status).toBe(404);
    expect((await get(w.tokens.student, 'fr')).status).toBe(400);
  });
});
