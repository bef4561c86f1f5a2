import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForumRecordList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCourse, createUser, addStudent, tokenFor } from '../../../test/factories.ts';
import { createForumWorld, postRecord, type ForumWorld } from './testing.ts';

/*
 * forum_reader_stats is kept by a trigger on forum_reads (migration 0005): whatever removes read rows —
 * marking unread, deleting a topic, deleting a course or a user — the kept count must equal the rows.
 */

let t: TestApp;
let w: ForumWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await createForumWorld(t);
});
afterAll(() => t.close());

/** Users and courses whose kept count differs from their forum_reads rows (none, when all is well). */
async function drift() {
  const { rows } = await t.ctx.database.query(`
    SELECT coalesce(s.user_id, x.user_id) AS user_id, coalesce(s.course_id, x.course_id) AS course_id,
           coalesce(s.reads, 0) AS kept, coalesce(x.n, 0) AS actual
    FROM forum_reader_stats s
    FULL JOIN (SELECT user_id, course_id, count(*)::int AS n FROM forum_reads GROUP BY 1, 2) x
      ON x.user_id = s.user_id AND x.course_id = s.course_id
    WHERE coalesce(s.reads, 0) <> coalesce(x.n, 0)`);
  return rows;
}

const markRead = (token: string, id: number, isRead = true) =>
  call(t, 'PUT', `/api/Forum/ForumUserStatus/${id}/`, { token, body: { is_read: isRead } });

const unreadCount = async (token: string, course: number) =>
  ForumRecordList.parse(
    (await call(t, 'GET', '/api/Forum/Record/', { token, query: { course: String(course), limit: '1' } }))
      .body,
  ).unread_count;

describe('the read counter', () => {
  it('equals the read rows through reads, unreads, deleted topics, courses and users', async () => {
    const course = w.course.id;
    const reader = await createUser(t, { firstName: 'Reader', lastName: 'One' });
    await addStudent(t, course, reader.id);
    const token = await tokenFor(t, reader);
    const topics = [];
    for (let i = 0; i < 4; i += 1) {
      topics.push(await postRecord(t, w.tokens.editor, { course, title: `Topic ${i}`, content: 'x' }));
    }
    const before = await unreadCount(token, course);
    for (const topic of topics) expect((await markRead(token, topic.id)).status).toBe(200);
    expect((await markRead(token, topics[0]!.id)).status).toBe(200); // twice: still one row
    expect(await unreadCount(token, course)).toBe(before - 4);
    expect(await drift()).toEqual([]);

    expect((await markRead(token, topics[1]!.id, false)).status).toBe(200);
    expect((await markRead(token, topics[1]!.id, false)).status).toBe(200);
    expect(await unreadCount(token, course)).toBe(before - 3);
    expect(await drift()).toEqual([]);

    // A deleted topic takes its read rows with it (ON DELETE CASCADE), and the counts follow.
    expect(
      (await call(t, 'DELETE', `/api/Forum/Record/${topics[2]!.id}/`, { token: w.tokens.editor })).status,
    ).toBe(204);
    expect(await unreadCount(token, course)).toBe(before - 3);
    expect(await drift()).toEqual([]);

    // Editors read the scheduled announcement: kept, but not counted until it is published.
    expect((await markRead(w.tokens.editor, w.scheduled.id)).status).toBe(200);
    expect(await drift()).toEqual([]);

    // A deleted user and a deleted course: their rows go, nothing is left behind or miscounted.
    const other = await createCourse(t, { title: 'Short-lived' });
    await addStudent(t, other.id, reader.id);
    const lone = await postRecord(t, w.tokens.staff, { course: other.id, title: 'Only topic', content: 'x' });
    expect((await markRead(token, lone.id)).status).toBe(200);
    expect((await markRead(w.tokens.staff, lone.id)).status).toBe(200);
    await t.ctx.database.query('DELETE FROM courses WHERE id = $1', [other.id]);
    expect(await drift()).toEqual([]);
    await t.ctx.database.query('DELETE FROM users WHERE id = $1', [reader.id]);
    expect(await drift()).toEqual([]);
    const { rows } = await t.ctx.database.query(
      'SELECT count(*)::int AS n FROM forum_reader_stats WHERE course_id = $1',
      [other.id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
