import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_MEMBERS_PER_REQUEST, MemberAddResult, MemberList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createUser,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import { findUserByEmail } from '../users/users.repo.ts';

describe('member lists', () => {
  let t: TestApp;
  let staff: string;
  let editor: string;
  let student: string;
  let outsider: string;
  let editorUser: TestUser;
  let studentUser: TestUser;
  let courseId: number;

  beforeAll(async () => {
    t = await createTestApp();
    editorUser = await createUser(t, { firstName: 'Emily', lastName: 'Carter' });
    studentUser = await createUser(t, { firstName: '太郎', lastName: '山田' });
    staff = await tokenFor(t, await createUser(t, { isStaff: true }));
    editor = await tokenFor(t, editorUser);
    student = await tokenFor(t, studentUser);
    outsider = await tokenFor(t, await createUser(t));
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    courseId = (await createCourse(t)).id;
    await addEditor(t, courseId, editorUser.id);
    await addStudent(t, courseId, studentUser.id);
  });

  const students = () => `/api/StudentList/${courseId}/`;
  const editors = () => `/api/EditorList/${courseId}/`;
  const add = async (url: string, token: string, body: unknown) => {
    const res = await call(t, 'POST', url, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return MemberAddResult.parse(res.body);
  };
  const list = async (url: string, token = staff) => {
    const res = await call(t, 'GET', url, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return MemberList.parse(res.body);
  };

  describe('GET', () => {
    it('lists members by family name, then given name, then e-mail, with when they were added', async () => {
      const a = await createUser(t, { email: 'b@example.jp', firstName: 'Ann', lastName: 'Abe' });
      const b = await createUser(t, { email: 'a@example.jp', firstName: 'Ann', lastName: 'Abe' });
      const c = await createUser(t, { firstName: 'Zed', lastName: 'Zimmer' });
      for (const u of [c, a, b]) await addStudent(t, courseId, u.id);
      const page = await list(students());
      expect(page.count).toBe(4);
      expect(page.results.map((m) => m.id)).toEqual([b.id, a.id, c.id, studentUser.id]);
      expect(page.results[0]).toEqual({
        id: b.id,
        email: 'a@example.jp',
        first_name: 'Ann',
        last_name: 'Abe',
        added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    });

    it('lets editors read both lists', async () => {
      expect((await list(editors(), editor)).results.map((m) => m.id)).toEqual([editorUser.id]);
      expect((await list(students(), editor)).results.map((m) => m.id)).toEqual([studentUser.id]);
    });

    it('answers 403 to students, 404 to outsiders and for unknown or malformed course ids', async () => {
      expect((await call(t, 'GET', students(), { token: student })).status).toBe(403);
      expect((await call(t, 'GET', editors(), { token: student })).status).toBe(403);
      expect((await call(t, 'GET', students(), { token: outsider })).status).toBe(404);
      for (const id of ['999999', 'abc', '0', '2.5']) {
        expect((await call(t, 'GET', `/api/StudentList/${id}/`, { token: staff })).status, id).toBe(404);
      }
    });
  });

  describe('POST', () => {
    it('adds existing users by id and by e-mail (any case), and reports the rest', async () => {
      const byId = await createUser(t, { firstName: 'Ken', lastName: 'Sato' });
      const byEmail = await createUser(t, { email: 'hanako@example.jp' });
      const result = await add(students(), staff, {
        user_ids: [byId.id, studentUser.id, 999_999, byId.id],
        emails: ['HANAKO@Example.JP', 'nonsense', ''],
      });
      expect(result).toEqual({
        added: [
          { id: byId.id, email: byId.email, first_name: 'Ken', last_name: 'Sato' },
          { id: byEmail.id, email: 'hanako@example.jp', first_name: 'Test', last_name: 'User' },
        ],
        already: [{ id: studentUser.id, email: studentUser.email, first_name: '太郎', last_name: '山田' }],
        created: [],
        invalid: ['nonsense'],
        unknown_ids: [999_999],
        unknown_emails: [],
        pending: [],
        ambiguous: [],
      });
      expect((await list(students())).count).toBe(3);
    });

    it('is idempotent: the same request again changes nothing', async () => {
      const u = await createUser(t);
      const body = { user_ids: [u.id], emails: ['brand-new-idem@example.jp'] };
      const first = await add(students(), staff, body);
      expect(first.added).toHaveLength(1);
      expect(first.created).toHaveLength(1);
      const second = await add(students(), staff, body);
      expect(second.added).toEqual([]);
      expect(second.created).toEqual([]);
      expect(second.already.map((m) => m.email).sort()).toEqual(
        ['brand-new-idem@example.jp', u.email].sort(),
      );
    });

    it('reads a CSV export with a header row, quotes, BOM, CRLF and mixed separators', async () => {
      const known = await createUser(t, { email: 'known@example.jp' });
      const csv = [
        '\uFEFFStudent No.;Name;E-mail',
        '1001;"Known, Person";known@example.jp',
        '1002\t"New Person"\t NEW.PERSON@example.jp ',
        '1003,"No Address",',
        '"Quoted" <quoted@example.jp>, bad@@example',
        '',
      ].join('\r\n');
      const result = await add(students(), staff, { csv });
      expect(result.added.map((m) => m.id)).toEqual([known.id]);
      expect(result.created.map((c) => c.user.email)).toEqual(['new.person@example.jp', 'quoted@example.jp']);
      expect(result.invalid).toEqual(['1003, No Address', 'bad@@example']);
      expect(result.already).toEqual([]);
    });

    it('creates missing accounts for staff, with working set-password links', async () => {
      const result = await add(editors(), staff, { emails: ['New.Editor@Example.jp'] });
      expect(result.created).toHaveLength(1);
      const { user } = result.created[0]!;
      // Staff get the link as well as the invitee's e-mail.
      const link = result.created[0]!.set_password!;
      expect(user).toMatchObject({ email: 'new.editor@example.jp', first_name: '', last_name: '' });
      expect(link.url).toBe(
        `http://lms.test/set-password?uid=${encodeURIComponent(link.uid)}&token=${encodeURIComponent(link.token)}`,
      );
      const row = await findUserByEmail(t.ctx.db, 'new.editor@example.jp');
      expect(row).toMatchObject({
        roles: ['instructor'],
        passwordHash: null,
        isStaff: false,
        displayLang: 'ja',
      });
      expect((await list(editors())).results.map((m) => m.email)).toContain('new.editor@example.jp');

      const confirm = await call(t, 'POST', '/api/Auth/password/reset/confirm/', {
        body: {
          uid: link.uid,
          token: link.token,
          new_password1: 'violet-kite-2026',
          new_password2: 'violet-kite-2026',
        },
      });
      expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
      const login = await call(t, 'POST', '/api/Auth/Token/', {
        body: { email: 'new.editor@example.jp', password: 'violet-kite-2026' },
      });
      expect(login.status).toBe(200);
      const courses = await call(t, 'GET', '/api/Course/', { token: String(login.json.access) });
      expect(courses.json.results).toEqual([expect.objectContaining({ id: courseId, my_role: 'editor' })]);
    });

    it('gives new students the student role', async () => {
      await add(students(), staff, { emails: ['new-student@example.jp'] });
      expect(await findUserByEmail(t.ctx.db, 'new-student@example.jp')).toMatchObject({ roles: ['student'] });
    });

    it('lets editors add students but not create accounts', async () => {
      const u = await createUser(t);
      const result = await add(students(), editor, { emails: [u.email, 'stranger@example.jp'] });
      expect(result.added.map((m) => m.id)).toEqual([u.id]);
      expect(result.created).toEqual([]);
      expect(result.unknown_emails).toEqual(['stranger@example.jp']);
      expect(await findUserByEmail(t.ctx.db, 'stranger@example.jp')).toBeNull();
    });

    it('lets editors add by id only people of their own courses, so ids cannot be probed for accounts', async () => {
      const otherCourse = (await createCourse(t)).id;
      await addEditor(t, otherCourse, editorUser.id);
      const formerStudent = await createUser(t);
      await addStudent(t, otherCourse, formerStudent.id);
      const stranger = await createUser(t, { email: 'stranger-by-id@example.jp' });
      const result = await add(students(), editor, { user_ids: [formerStudent.id, stranger.id, 999_998] });
      expect(result.added.map((m) => m.id)).toEqual([formerStudent.id]);
      expect(result.unknown_ids).toEqual([stranger.id, 999_998]);
      expect(JSON.stringify(result)).not.toContain('stranger-by-id@example.jp');
      // Staff may name anyone.
      expect((await add(students(), staff, { user_ids: [stranger.id] })).added.map((m) => m.id)).toEqual([
        stranger.id,
      ]);
    });

    it('keeps a student on the student list when they become an editor', async () => {
      const result = await add(editors(), staff, { user_ids: [studentUser.id] });
      expect(result.added.map((m) => m.id)).toEqual([studentUser.id]);
      expect((await list(students())).results.map((m) => m.id)).toEqual([studentUser.id]);
      const res = await call(t, 'GET', `/api/Course/${courseId}/`, { token: student });
      expect(res.json.my_role).toBe('editor');
    });

    it('creates an account once when two requests add the same new e-mail at the same time', async () => {
      const body = { emails: ['race@example.jp'] };
      const [a, b] = await Promise.all([
        call(t, 'POST', students(), { token: staff, body }),
        call(t, 'POST', editors(), { token: staff, body }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const created = [a, b].map((r) => MemberAddResult.parse(r.body).created.length);
      expect(created.sort()).toEqual([0, 1]);
      expect((await list(students())).results.map((m) => m.email)).toContain('race@example.jp');
      expect((await list(editors())).results.map((m) => m.email)).toContain('race@example.jp');
    });

    it('refuses bad input', async () => {
      const bodies: unknown[] = [
        {},
        { user_ids: [], emails: [] },
        { csv: '   ' },
        { user_ids: ['1'] },
        { user_ids: [0] },
        { user_ids: [1.5] },
        { user_ids: [3_000_000_000] },
        { user_ids: 5 },
        { emails: 'a@example.jp' },
        { emails: [42] },
        { csv: 42 },
        { user_ids: [1], role: 'staff' },
        { user_ids: Array.from({ length: MAX_MEMBERS_PER_REQUEST + 1 }, (_, i) => i + 1) },
      ];
      for (const body of bodies) {
        const res = await call(t, 'POST', students(), { token: staff, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json.code).toBe('invalid');
      }
    });

    it('refuses more people than one request may add, counting the CSV too', async () => {
      const csv = Array.from({ length: MAX_MEMBERS_PER_REQUEST }, (_, i) => `p${i}@example.jp`).join('\n');
      const res = await call(t, 'POST', students(), {
        token: staff,
        body: { csv, user_ids: [studentUser.id] },
      });
      expect(res.status).toBe(400);
      expect((await list(students())).count).toBe(1);
    });

    it('answers 413 to an oversize body', async () => {
      const res = await call(t, 'POST', students(), {
        token: staff,
        body: { csv: 'x'.repeat(3 * 1024 * 1024) },
      });
      expect(res.status).toBe(413);
    });

    it('answers 403 to an editor changing editors and to students, 404 to outsiders', async () => {
      const u = await createUser(t);
      const body = { user_ids: [u.id] };
      expect((await call(t, 'POST', editors(), { token: editor, body })).status).toBe(403);
      expect((await call(t, 'POST', students(), { token: student, body })).status).toBe(403);
      expect((await call(t, 'POST', students(), { token: outsider, body })).status).toBe(404);
      expect((await call(t, 'POST', '/api/StudentList/999999/', { token: staff, body })).status).toBe(404);
      expect((await list(editors())).count).toBe(1);
      expect((await list(students())).count).toBe(1);
    });
  });

  describe('DELETE', () => {
    it('removes members and says how many were on the list', async () => {
      const u = await createUser(t);
      await addStudent(t, courseId, u.id);
      const res = await call(t, 'DELETE', students(), {
        token: editor,
        body: { user_ids: [u.id, studentUser.id, 999_999, u.id] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ removed: 2, removed_pending: 0 });
      expect((await list(students())).count).toBe(0);
      const again = await call(t, 'DELETE', students(), { token: editor, body: { user_ids: [u.id] } });
      expect(again.body).toEqual({ removed: 0, removed_pending: 0 });
    });

    it('lets only staff remove editors', async () => {
      const body = { user_ids: [editorUser.id] };
      expect((await call(t, 'DELETE', editors(), { token: editor, body })).status).toBe(403);
      const res = await call(t, 'DELETE', editors(), { token: staff, body });
      expect(res.body).toEqual({ removed: 1, removed_pending: 0 });
      expect((await call(t, 'GET', editors(), { token: editor })).status).toBe(404);
    });

    it('refuses bad input', async () => {
      for (const body of [
        {},
        { user_ids: [] },
        { user_ids: ['x'] },
        { user_ids: [-1] },
        { emails: ['a@b.jp'] },
      ]) {
        const res = await call(t, 'DELETE', students(), { token: staff, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const none = await call(t, 'DELETE', students(), { token: staff });
      expect(none.status).toBe(400);
    });
  });
});
