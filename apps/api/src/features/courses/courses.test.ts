import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Course, CourseList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';

describe('courses', () => {
  let t: TestApp;
  let staff: string;
  let editor: string;
  let student: string;
  let outsider: string;
  let course: { id: number };

  beforeAll(async () => {
    t = await createTestApp();
    const staffUser = await createUser(t, { isStaff: true });
    const editorUser = await createUser(t);
    const studentUser = await createUser(t);
    const outsiderUser = await createUser(t);
    course = await createCourse(t, { title: 'Compilers', description: 'Parsing and code generation' });
    await addEditor(t, course.id, editorUser.id);
    await addStudent(t, course.id, studentUser.id);
    staff = await tokenFor(t, staffUser);
    editor = await tokenFor(t, editorUser);
    student = await tokenFor(t, studentUser);
    outsider = await tokenFor(t, outsiderUser);
  });
  afterAll(() => t.close());

  describe('POST Course/', () => {
    it('creates a course for staff with defaults, and answers 201 with the course', async () => {
      const res = await call(t, 'POST', '/api/Course/', { token: staff, body: { title: '  Networks  ' } });
      expect(res.status).toBe(201);
      const created = Course.parse(res.body);
      expect(created).toMatchObject({
        title: 'Networks',
        description: '',
        has_videos: false,
        has_assessment: false,
        my_role: 'staff',
        editor_count: 0,
        student_count: 0,
      });
      const read = await call(t, 'GET', `/api/Course/${created.id}/`, { token: staff });
      expect(read.body).toEqual(created);
    });

    it('refuses bad input with field errors', async () => {
      const cases: [unknown, string][] = [
        [{}, 'title'],
        [{ title: '' }, 'title'],
        [{ title: '   ' }, 'title'],
        [{ title: 42 }, 'title'],
        [{ title: 'x'.repeat(201) }, 'title'],
        [{ title: 'Ok', has_videos: 'yes' }, 'has_videos'],
        [{ title: 'Ok', description: 'x'.repeat(10_001) }, 'description'],
      ];
      for (const [body, field] of cases) {
        const res = await call(t, 'POST', '/api/Course/', { token: staff, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json.code).toBe('invalid');
        expect(res.json[field], JSON.stringify(res.body)).toBeDefined();
      }
      const unknownField = await call(t, 'POST', '/api/Course/', {
        token: staff,
        body: { title: 'Ok', owner: 1 },
      });
      expect(unknownField.status).toBe(400);
      const notJson = await call(t, 'POST', '/api/Course/', { token: staff, body: '{"title": ' });
      expect(notJson.status).toBe(400);
    });

    it('answers 413 to an oversize body', async () => {
      const res = await call(t, 'POST', '/api/Course/', {
        token: staff,
        body: { title: 'Big', description: 'x'.repeat(3 * 1024 * 1024) },
      });
      expect(res.status).toBe(413);
      expect(res.json.code).toBe('too_large');
    });

    it('is for staff only', async () => {
      expect((await call(t, 'POST', '/api/Course/', { token: editor, body: { title: 'X' } })).status).toBe(
        403,
      );
      expect((await call(t, 'POST', '/api/Course/', { body: { title: 'X' } })).status).toBe(401);
    });
  });

  describe('GET Course/{id}/', () => {
    it('shows the course to its members with their role and the counts', async () => {
      for (const [token, role] of [
        [staff, 'staff'],
        [editor, 'editor'],
        [student, 'student'],
      ] as const) {
        const res = await call(t, 'GET', `/api/Course/${course.id}/`, { token });
        expect(res.status).toBe(200);
        expect(Course.parse(res.body)).toMatchObject({
          id: course.id,
          title: 'Compilers',
          my_role: role,
          editor_count: 1,
          student_count: 1,
        });
      }
    });

    it('answers 404 to outsiders, unknown ids and ids that are not numbers', async () => {
      expect((await call(t, 'GET', `/api/Course/${course.id}/`, { token: outsider })).status).toBe(404);
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999']) {
        const res = await call(t, 'GET', `/api/Course/${id}/`, { token: staff });
        expect(res.status, id).toBe(404);
        expect(res.json.code).toBe('not_found');
      }
    });

    it('calls someone on both lists an editor', async () => {
      const both = await createUser(t);
      const c = await createCourse(t);
      await addStudent(t, c.id, both.id);
      await addEditor(t, c.id, both.id);
      const res = await call(t, 'GET', `/api/Course/${c.id}/`, { token: await tokenFor(t, both) });
      expect(res.json.my_role).toBe('editor');
    });
  });

  describe('PUT and PATCH Course/{id}/', () => {
    it('lets an editor change some fields and bumps updated_at', async () => {
      const c = await createCourse(t, { title: 'Before' });
      const e = await createUser(t);
      await addEditor(t, c.id, e.id);
      const token = await tokenFor(t, e);
      const before = Course.parse((await call(t, 'GET', `/api/Course/${c.id}/`, { token })).body);
      const res = await call(t, 'PATCH', `/api/Course/${c.id}/`, { token, body: { has_videos: true } });
      expect(res.status).toBe(200);
      const after = Course.parse(res.body);
      expect(after).toMatchObject({ title: 'Before', has_videos: true, my_role: 'editor', editor_count: 1 });
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(after.created_at).toBe(before.created_at);
    });

    it('refuses an empty PATCH as nothing to change, and changes nothing', async () => {
      const c = await createCourse(t, { title: 'Same' });
      const res = await call(t, 'PATCH', `/api/Course/${c.id}/`, { token: staff, body: {} });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('nothing_to_change');
      const after = await call(t, 'GET', `/api/Course/${c.id}/`, { token: staff });
      expect(after.json.updated_at).toBe(c.updatedAt.toISOString());
    });

    it('PUT replaces every field and requires them all', async () => {
      const c = await createCourse(t, { title: 'Old', description: 'old', hasVideos: true });
      const body = { title: 'New', description: 'new', has_videos: false, has_assessment: true };
      const res = await call(t, 'PUT', `/api/Course/${c.id}/`, { token: staff, body });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject(body);
      const partial = await call(t, 'PUT', `/api/Course/${c.id}/`, { token: staff, body: { title: 'Only' } });
      expect(partial.status).toBe(400);
      expect(partial.json.description).toBeDefined();
    });

    it('refuses wrong types, and answers 403 to a student and 404 to outsiders', async () => {
      const bad = await call(t, 'PATCH', `/api/Course/${course.id}/`, { token: editor, body: { title: 7 } });
      expect(bad.status).toBe(400);
      const extra = await call(t, 'PATCH', `/api/Course/${course.id}/`, { token: editor, body: { id: 7 } });
      expect(extra.status).toBe(400);
      const body = { title: 'Hacked' };
      expect((await call(t, 'PATCH', `/api/Course/${course.id}/`, { token: student, body })).status).toBe(
        403,
      );
      expect((await call(t, 'PATCH', `/api/Course/${course.id}/`, { token: outsider, body })).status).toBe(
        404,
      );
      expect((await call(t, 'PATCH', '/api/Course/999999/', { token: staff, body })).status).toBe(404);
      expect((await call(t, 'PATCH', '/api/Course/x/', { token: staff, body })).status).toBe(404);
      const read = await call(t, 'GET', `/api/Course/${course.id}/`, { token: staff });
      expect(read.json.title).toBe('Compilers');
    });
  });

  describe('time_zone', () => {
    it('is DEFAULT_TIME_ZONE (Asia/Tokyo) for a course that names none, and set when one is given', async () => {
      expect((await call(t, 'GET', `/api/Course/${course.id}/`, { token: student })).json.time_zone).toBe(
        'Asia/Tokyo',
      );
      const plain = await call(t, 'POST', '/api/Course/', { token: staff, body: { title: 'Plain' } });
      expect(plain.json.time_zone).toBe('Asia/Tokyo');
      const body = { title: 'Evening', time_zone: 'America/New_York' };
      const zoned = await call(t, 'POST', '/api/Course/', { token: staff, body });
      expect(zoned.status).toBe(201);
      expect(Course.parse(zoned.body).time_zone).toBe('America/New_York');
      const list = await call(t, 'GET', '/api/Course/', { token: staff, query: { search: 'Evening' } });
      expect(list.json.results).toEqual([zoned.body]);
      // Another case or alias of a listed zone is stored as the list spells it.
      const alias = await call(t, 'POST', '/api/Course/', {
        token: staff,
        body: { title: 'Alias', time_zone: 'etc/utc' },
      });
      expect(alias.json.time_zone).toBe('UTC');
    });

    it('refuses what is not an IANA zone, naming the field', async () => {
      for (const time_zone of ['Asia/Atlantis', 'JST+9', '+09:00', '', 42, 'Asia/\u0000Tokyo']) {
        const post = await call(t, 'POST', '/api/Course/', { token: staff, body: { title: 'X', time_zone } });
        expect(post.status, String(time_zone)).toBe(400);
        expect(post.json.time_zone, JSON.stringify(post.body)).toBeDefined();
        const patch = await call(t, 'PATCH', `/api/Course/${course.id}/`, {
          token: editor,
          body: { time_zone },
        });
        expect(patch.status, String(time_zone)).toBe(400);
        expect(patch.json.time_zone).toBeDefined();
      }
      const read = await call(t, 'GET', `/api/Course/${course.id}/`, { token: staff });
      expect(read.json.time_zone).toBe('Asia/Tokyo');
    });

    it('is changed by PATCH (editors and staff), kept by a PUT without it, and reset by null', async () => {
      const c = await createCourse(t, { title: 'Zoned' });
      const e = await createUser(t);
      const s = await createUser(t);
      await addEditor(t, c.id, e.id);
      await addStudent(t, c.id, s.id);
      const path = `/api/Course/${c.id}/`;
      const body = { time_zone: 'Europe/Berlin' };
      expect((await call(t, 'PATCH', path, { token: await tokenFor(t, s), body })).status).toBe(403);
      const patched = await call(t, 'PATCH', path, { token: await tokenFor(t, e), body });
      expect(patched.status).toBe(200);
      expect(patched.json).toMatchObject({ title: 'Zoned', time_zone: 'Europe/Berlin' });
      const replace = { title: 'Zoned', description: '', has_videos: false, has_assessment: false };
      expect((await call(t, 'PUT', path, { token: staff, body: replace })).json.time_zone).toBe(
        'Europe/Berlin',
      );
      const reset = await call(t, 'PATCH', path, { token: staff, body: { time_zone: null } });
      expect(reset.json.time_zone).toBe('Asia/Tokyo');
    });

    it('follows DEFAULT_TIME_ZONE for courses that name none, also after it changes', async () => {
      const other = await createTestApp({ env: { DEFAULT_TIME_ZONE: 'America/New_York' } });
      try {
        const admin = await tokenFor(other, await createUser(other, { isStaff: true }));
        const old = await createCourse(other, { title: 'From before the setting' });
        const own = await createCourse(other, { title: 'Own zone', timeZone: 'Asia/Tokyo' });
        const zoneOf = async (id: number) =>
          (await call(other, 'GET', `/api/Course/${id}/`, { token: admin })).json.time_zone;
        expect(await zoneOf(old.id)).toBe('America/New_York');
        expect(await zoneOf(own.id)).toBe('Asia/Tokyo');
        const created = await call(other, 'POST', '/api/Course/', { token: admin, body: { title: 'New' } });
        expect(created.json.time_zone).toBe('America/New_York');
      } finally {
        await other.close();
      }
    });
  });

  describe('DELETE Course/{id}/', () => {
    it('lets staff delete a course with its memberships', async () => {
      const c = await createCourse(t);
      const s = await createUser(t);
      await addStudent(t, c.id, s.id);
      const res = await call(t, 'DELETE', `/api/Course/${c.id}/`, { token: staff });
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect((await call(t, 'GET', `/api/Course/${c.id}/`, { token: staff })).status).toBe(404);
      expect((await call(t, 'DELETE', `/api/Course/${c.id}/`, { token: staff })).status).toBe(404);
      const list = await call(t, 'GET', '/api/Course/', { token: await tokenFor(t, s) });
      expect(list.json.count).toBe(0);
    });

    it('answers 403 to members and 404 to outsiders', async () => {
      expect((await call(t, 'DELETE', `/api/Course/${course.id}/`, { token: editor })).status).toBe(403);
      expect((await call(t, 'DELETE', `/api/Course/${course.id}/`, { token: student })).status).toBe(403);
      expect((await call(t, 'DELETE', `/api/Course/${course.id}/`, { token: outsider })).status).toBe(404);
      expect((await call(t, 'DELETE', '/api/Course/abc/', { token: staff })).status).toBe(404);
    });
  });
});

describe('GET Course/ (list)', () => {
  let t: TestApp;
  let staff: string;
  let member: string;
  let memberId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const staffUser = await createUser(t, { isStaff: true });
    const memberUser = await createUser(t);
    memberId = memberUser.id;
    staff = await tokenFor(t, staffUser);
    member = await tokenFor(t, memberUser);
    // 25 numbered courses; the member edits three, studies two, and is on both lists of one.
    for (let i = 1; i <= 25; i++) {
      const c = await createCourse(t, {
        title: `Course ${String(i).padStart(2, '0')}`,
        description: `week ${i}`,
      });
      if (i <= 3) await addEditor(t, c.id, memberId);
      if (i === 4 || i === 5 || i === 3) await addStudent(t, c.id, memberId);
    }
    await createCourse(t, { title: '100% Python', description: 'all of it' });
    await createCourse(t, { title: 'snake_case style', description: '' });
    await createCourse(t, { title: 'Backslash \\ course', description: '' });
    await createCourse(t, { title: 'Misc', description: 'Uses the Python_3 LANGUAGE' });
  });
  afterAll(() => t.close());

  const list = async (token: string, query: Record<string, string> = {}) => {
    const res = await call(t, 'GET', '/api/Course/', { token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return CourseList.parse(res.body);
  };

  it('shows staff every course, 20 a page by default, ordered by title', async () => {
    const page = await list(staff);
    expect(page.count).toBe(29);
    expect(page.limit).toBe(20);
    expect(page.offset).toBe(0);
    expect(page.results).toHaveLength(20);
    expect(page.results[0]!.title).toBe('100% Python');
    expect(page.results.every((c) => c.my_role === 'staff')).toBe(true);
  });

  it('pages with limit and offset, and still counts past the end', async () => {
    const first = await list(staff, { limit: '10', offset: '0' });
    const second = await list(staff, { limit: '10', offset: '10' });
    const last = await list(staff, { limit: '10', offset: '20' });
    expect([first.results.length, second.results.length, last.results.length]).toEqual([10, 10, 9]);
    const all = [...first.results, ...second.results, ...last.results].map((c) => c.id);
    expect(new Set(all).size).toBe(29);
    const beyond = await list(staff, { limit: '10', offset: '500' });
    expect(beyond).toMatchObject({ count: 29, offset: 500, results: [] });
  });

  it('shows others only their courses, with their role and counts', async () => {
    const page = await list(member);
    expect(page.count).toBe(5);
    expect(page.results.map((c) => [c.title, c.my_role, c.editor_count, c.student_count])).toEqual([
      ['Course 01', 'editor', 1, 0],
      ['Course 02', 'editor', 1, 0],
      ['Course 03', 'editor', 1, 1],
      ['Course 04', 'student', 0, 1],
      ['Course 05', 'student', 0, 1],
    ]);
    const nobody = await list(await tokenFor(t, await createUser(t)));
    expect(nobody).toMatchObject({ count: 0, results: [] });
  });

  it('orders by every allowed field, both ways', async () => {
    expect((await list(staff, { ordering: '-title' })).results[0]!.title).toBe('snake_case style');
    const byId = (await list(member, { ordering: '-id' })).results.map((c) => c.id);
    expect(byId).toEqual([...byId].sort((a, b) => b - a));
    for (const ordering of ['id', 'created_at', '-created_at', 'updated_at', '-updated_at', 'title']) {
      expect((await list(member, { ordering })).count).toBe(5);
    }
  });

  it('searches title and description case-insensitively, with % and _ taken literally', async () => {
    const titles = async (search: string, token = staff) =>
      (await list(token, { search, limit: '100' })).results.map((c) => c.title);
    expect(await titles('python')).toEqual(['100% Python', 'Misc']);
    expect(await titles('%')).toEqual(['100% Python']);
    expect(await titles('_')).toEqual(['Misc', 'snake_case style']);
    expect(await titles('\\')).toEqual(['Backslash \\ course']);
    expect(await titles('WEEK 1')).toHaveLength(11);
    expect(await titles('week 1', member)).toEqual(['Course 01']);
    expect(await titles('   ')).toHaveLength(29);
    const counted = await list(staff, { search: 'course', limit: '5' });
    expect(counted.count).toBe(26);
    expect(counted.results).toHaveLength(5);
  });

  it('refuses bad query parameters', async () => {
    const queries: Record<string, string>[] = [
      { limit: '101' },
      { limit: '0' },
      { limit: 'ten' },
      { offset: '-1' },
      { ordering: 'password' },
      { ordering: 'title; drop table courses' },
      { search: 'x'.repeat(101) },
    ];
    for (const query of queries) {
      const res = await call(t, 'GET', '/api/Course/', { token: staff, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.json.code).toBe('invalid');
    }
    expect((await call(t, 'GET', '/api/Course/')).status).toBe(401);
  });
});
