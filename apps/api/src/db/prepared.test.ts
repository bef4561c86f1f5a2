import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createForumWorld, postRecord, type ForumWorld } from '../features/forum/testing.ts';
import { recordDetailColumns } from '../features/forum/record-details.repo.ts';
import { prepareSelect } from './prepared.ts';
import { courses, users } from './schema.ts';
import { forumRecords } from './schema-forum.ts';

let t: TestApp;
let w: ForumWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await createForumWorld(t);
  await postRecord(t, w.tokens.student, { course: w.course.id, title: 'Null title? no', content: '**x**' });
});
afterAll(() => t.close());

describe('prepareSelect', () => {
  it('gives the rows drizzle gives: columns, expressions, mapWith, json, nulls, subquery fields', async () => {
    const db = t.ctx.db;
    const r = forumRecords;
    const page = db
      .select({
        id: r.id,
        micros: sql<string>`(extract(epoch from ${r.createdAt}) * 1000000)::bigint::text`.as('micros'),
      })
      .from(r)
      .where(eq(r.courseId, sql.placeholder('courseId')))
      .as('p');
    const query = db
      .select({
        ...recordDetailColumns,
        micros: page.micros,
        courseTitle: courses.title,
        counted: sql<number>`(select count(*) from ${users})`.mapWith(Number),
        nothing: sql<string | null>`null::text`,
        flags: sql<number[]>`array[1, 2, 3]`,
        viewerId: sql<number>`${sql.placeholder('viewerId')}::int`,
      })
      .from(page)
      .innerJoin(r, eq(r.id, page.id))
      .innerJoin(users, eq(users.id, r.authorId))
      .innerJoin(courses, eq(courses.id, r.courseId))
      .orderBy(r.id);
    const values = { courseId: w.course.id, viewerId: w.users.student.id };
    const ours = await prepareSelect(db, query, 'test_prepare_select').execute(values);
    const drizzles = await query.prepare('test_prepare_select_drizzle').execute(values);
    expect(ours.length).toBeGreaterThanOrEqual(4);
    expect(ours).toEqual(drizzles);
    const first = ours[0]!;
    expect(first.createdAt).toBeInstanceOf(Date);
    expect(first.scheduledAt).toBeNull();
    expect(typeof first.counted).toBe('number');
    expect(first.nothing).toBeNull();
    expect(first.flags).toEqual([1, 2, 3]);
    expect(first.viewerId).toBe(w.users.student.id);
    expect(Object.keys(first)).toEqual(Object.keys(drizzles[0]!));
  });

  it('refuses a nested selection (drizzle nests it; this mapper is flat)', () => {
    const query = t.ctx.db.select({ user: { id: users.id } }).from(users);
    expect(() => prepareSelect(t.ctx.db, query, 'test_prepare_nested')).toThrow(/nested/);
  });
});
