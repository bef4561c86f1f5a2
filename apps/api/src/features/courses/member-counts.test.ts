import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Course, CourseList } from '@kadai/contracts';
import { courseEditors, courseStudents, courses, users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';

// The member counts the course list and a course's page show are kept on the course row by the
// trigger of migration 0016; these check them against the membership rows after every kind of change,
// the cascades no application code sees included.
describe('member counts kept on the course row', () => {
  let t: TestApp;
  let staff: string;
  let courseId: number;
  let otherCourseId: number;

  beforeAll(async () => {
    t = await createTestApp();
    staff = await tokenFor(t, await createUser(t, { isStaff: true }));
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    courseId = (await createCourse(t)).id;
    otherCourseId = (await createCourse(t)).id;
  });

  /** What the API says, and what the rows say, for one course. */
  async function counts(id: number) {
    const res = await call(t, 'GET', `/api/Course/${id}/`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const shown = Course.parse(res.body);
    const [rows] = await t.ctx.db
      .select({
        students: sql<number>`(select count(*)::int from ${courseStudents} where ${courseStudents.courseId} = ${id})`,
        editors: sql<number>`(select count(*)::int from ${courseEditors} where ${courseEditors.courseId} = ${id})`,
      })
      .from(sql`(select 1) as one`);
    expect({ students: shown.student_count, editors: shown.editor_count }).toEqual(rows);
    return rows!;
  }

  it('counts members added one by one, in bulk and again (nothing twice)', async () => {
    expect(await counts(courseId)).toEqual({ students: 0, editors: 0 });
    const a = await createUser(t);
    await addStudent(t, courseId, a.id);
    const many = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    const res = await call(t, 'POST', `/api/StudentList/${courseId}/`, {
      token: staff,
      body: { user_ids: [...many.map((u) => u.id), a.id] },
    });
    expect(res.status).toBe(200);
    await call(t, 'POST', `/api/EditorList/${courseId}/`, {
      token: staff,
      body: { user_ids: [many[0]!.id] },
    });
    expect(await counts(courseId)).toEqual({ students: 6, editors: 1 });
    expect(await counts(otherCourseId)).toEqual({ students: 0, editors: 0 });
  });

  it('counts members removed through the API, and by a deleted user in every course at once', async () => {
    const leaving = await createUser(t);
    const staying = await createUser(t);
    for (const id of [courseId, otherCourseId]) {
      await addStudent(t, id, leaving.id);
      await addStudent(t, id, staying.id);
      await addEditor(t, id, leaving.id);
    }
    const removed = await call(t, 'DELETE', `/api/StudentList/${courseId}/`, {
      token: staff,
      body: { user_ids: [staying.id, 999_999] },
    });
    expect(removed.body).toEqual({ removed: 1, removed_pending: 0 });
    expect(await counts(courseId)).toEqual({ students: 1, editors: 1 });

    await t.ctx.db.delete(users).where(eq(users.id, leaving.id));
    expect(await counts(courseId)).toEqual({ students: 0, editors: 0 });
    expect(await counts(otherCourseId)).toEqual({ students: 1, editors: 0 });
  });

  it('goes with a deleted course, and shows the same counts in the course list', async () => {
    const student = await createUser(t);
    await addStudent(t, courseId, student.id);
    await addStudent(t, otherCourseId, student.id);
    await t.ctx.db.delete(courses).where(eq(courses.id, otherCourseId));
    expect(await counts(courseId)).toEqual({ students: 1, editors: 0 });

    const res = await call(t, 'GET', '/api/Course/?limit=100', { token: await tokenFor(t, student) });
    const listed = CourseList.parse(res.body).results;
    expect(listed.map((c) => [c.id, c.student_count, c.editor_count])).toEqual([[courseId, 1, 0]]);
  });
});
