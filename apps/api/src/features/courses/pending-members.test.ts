import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_MEMBERS_PER_REQUEST, MemberAddResult, MemberList, type MemberKind } from '@kadai/contracts';
import { courseEditors, courseStudents } from '../../db/schema.ts';
import { identityProviders, pendingMembers, userIdentities } from '../../db/schema-identity.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createUser,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import { joinPendingMemberships } from './members.service.ts';

describe('member lists by institutional id', () => {
  let t: TestApp;
  let staff: string;
  let editor: string;
  let student: string;
  let outsider: string;
  let editorUser: TestUser;
  /** A student of every course of the file (see beforeEach). */
  let studentUserId: number;
  let providerId: number;
  let otherProviderId: number;
  let courseId: number;
  let identityCount = 0;

  const createProvider = async (slug: string) => {
    const [row] = await t.ctx.db
      .insert(identityProviders)
      .values({ slug, kind: 'saml', nameJa: slug, nameEn: slug, settings: {} })
      .returning({ id: identityProviders.id });
    return row!.id;
  };
  /** An account that has signed in through a provider that gave it `institutionalId`. */
  const signedInWith = async (institutionalId: string, user?: TestUser, provider = providerId) => {
    const account = user ?? (await createUser(t));
    identityCount += 1;
    await t.ctx.db.insert(userIdentities).values({
      providerId: provider,
      externalId: `external-${identityCount}`,
      userId: account.id,
      institutionalId,
    });
    return account;
  };

  beforeAll(async () => {
    t = await createTestApp();
    providerId = await createProvider('university');
    otherProviderId = await createProvider('university-oidc');
    editorUser = await createUser(t);
    const studentUser = await createUser(t);
    staff = await tokenFor(t, await createUser(t, { isStaff: true }));
    editor = await tokenFor(t, editorUser);
    outsider = await tokenFor(t, await createUser(t));
    student = await tokenFor(t, studentUser);
    studentUserId = studentUser.id;
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    courseId = (await createCourse(t)).id;
    await addEditor(t, courseId, editorUser.id);
    await addStudent(t, courseId, studentUserId);
  });

  const students = (id = courseId) => `/api/StudentList/${id}/`;
  const editors = (id = courseId) => `/api/EditorList/${id}/`;
  const add = async (url: string, token: string, institutionalIds: string[]) => {
    const res = await call(t, 'POST', url, { token, body: { institutional_ids: institutionalIds } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return MemberAddResult.parse(res.body);
  };
  const list = async (url: string, token = staff) => {
    const res = await call(t, 'GET', url, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return MemberList.parse(res.body);
  };
  const pendingOf = async (url: string, token = staff) =>
    (await list(url, token)).pending.map((p) => p.institutional_id);

  describe('POST', () => {
    it('adds the account that signed in with the id, whatever its case, with spaces around it', async () => {
      const person = await signedInWith('S2600101');
      const result = await add(students(), staff, ['  s2600101 ', 'S2600101']);
      expect(result.added.map((m) => m.id)).toEqual([person.id]);
      expect(result.pending).toEqual([]);
      expect(result.ambiguous).toEqual([]);
      expect((await list(students())).results.map((m) => m.id)).toContain(person.id);
      // Again: already a member.
      const again = await add(students(), staff, ['s2600101']);
      expect(again.added).toEqual([]);
      expect(again.already.map((m) => m.id)).toEqual([person.id]);
    });

    it('holds unknown ids as pending, once, whatever the case of a repeat', async () => {
      const first = await add(students(), staff, ['taro@uni.ac.jp', 's2600102']);
      expect(first).toMatchObject({ added: [], already: [], pending: ['taro@uni.ac.jp', 's2600102'] });
      const second = await add(students(), staff, ['TARO@UNI.AC.JP']);
      expect(second.pending).toEqual(['TARO@UNI.AC.JP']);
      const page = await list(students());
      expect(page.pending_count).toBe(2);
      expect(page.pending.map(({ institutional_id }) => institutional_id)).toEqual([
        's2600102',
        'taro@uni.ac.jp',
      ]);
      for (const entry of page.pending) {
        expect(Object.keys(entry).sort()).toEqual(['added_at', 'id', 'institutional_id']);
        expect(entry.id).toBeGreaterThan(0);
        expect(entry.added_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      // Pending people are not members yet.
      expect(page.count).toBe(1);
    });

    it('reports an id several accounts signed in with as ambiguous and adds nobody for it', async () => {
      const a = await signedInWith('s2600103');
      await signedInWith('S2600103');
      // One account with the same id from two providers is one person.
      const both = await signedInWith('s2600104');
      await signedInWith('s2600104', both, otherProviderId);
      const result = await add(students(), staff, ['s2600103', 's2600104']);
      expect(result.ambiguous).toEqual(['s2600103']);
      expect(result.added.map((m) => m.id)).toEqual([both.id]);
      expect(result.pending).toEqual([]);
      const page = await list(students());
      expect(page.results.map((m) => m.id)).not.toContain(a.id);
      expect(page.pending).toEqual([]);
    });

    it('lets editors add students by institutional id, and staff editors', async () => {
      const person = await signedInWith('s2600105');
      const result = await add(students(), editor, ['s2600105', 's2600106']);
      expect(result.added.map((m) => m.id)).toEqual([person.id]);
      expect(result.pending).toEqual(['s2600106']);
      expect(await pendingOf(students(), editor)).toEqual(['s2600106']);
      expect((await add(editors(), staff, ['t-0042'])).pending).toEqual(['t-0042']);
      // Editors read the editor list's pending entries too.
      expect(await pendingOf(editors(), editor)).toEqual(['t-0042']);
    });

    it('answers 403 to an editor changing editors and to students, 404 to outsiders, holding nothing', async () => {
      const body = { institutional_ids: ['s2600107'] };
      expect((await call(t, 'POST', editors(), { token: editor, body })).status).toBe(403);
      expect((await call(t, 'POST', students(), { token: student, body })).status).toBe(403);
      expect((await call(t, 'POST', students(), { token: outsider, body })).status).toBe(404);
      expect((await call(t, 'GET', students(), { token: student })).status).toBe(403);
      expect((await call(t, 'GET', students(), { token: outsider })).status).toBe(404);
      expect(await pendingOf(students())).toEqual([]);
      expect(await pendingOf(editors())).toEqual([]);
    });

    it("keeps one course's pending ids to that course and list", async () => {
      const other = (await createCourse(t)).id;
      await add(students(other), staff, ['s2600108']);
      expect(await pendingOf(students(other))).toEqual(['s2600108']);
      expect(await pendingOf(students())).toEqual([]);
      expect(await pendingOf(editors(other))).toEqual([]);
      // The same id may be pending on another list: each is its own entry.
      await add(students(), staff, ['s2600108']);
      expect(await pendingOf(students())).toEqual(['s2600108']);
    });

    it('refuses bad institutional ids and too many people', async () => {
      const idsOf = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
      const bodies: unknown[] = [
        { institutional_ids: [] },
        { institutional_ids: ['   '] },
        { institutional_ids: ['x'.repeat(201)] },
        { institutional_ids: ['s26\u0000001'] },
        { institutional_ids: ['s26\u0007001'] },
        { institutional_ids: [42] },
        { institutional_ids: 's2600109' },
        { institutional_ids: idsOf(MAX_MEMBERS_PER_REQUEST + 1) },
      ];
      for (const body of bodies) {
        const res = await call(t, 'POST', students(), { token: staff, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      }
      // Counted together with e-mails.
      const res = await call(t, 'POST', students(), {
        token: staff,
        body: { institutional_ids: idsOf(MAX_MEMBERS_PER_REQUEST), emails: ['one-more@example.jp'] },
      });
      expect(res.status).toBe(400);
      expect(await pendingOf(students())).toEqual([]);
    });
  });

  describe('DELETE', () => {
    it('removes pending entries, with members in the same request', async () => {
      await add(students(), staff, ['s2600110', 's2600111']);
      const [first, second] = (await list(students())).pending;
      const res = await call(t, 'DELETE', students(), {
        token: editor,
        body: { pending_ids: [first!.id, first!.id], user_ids: [studentUserId] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ removed: 1, removed_pending: 1 });
      const page = await list(students());
      expect(page.pending.map((p) => p.id)).toEqual([second!.id]);
      expect(page.count).toBe(0);
    });

    it("ignores another course's or list's pending ids, and lets only staff remove editors' ones", async () => {
      const other = (await createCourse(t)).id;
      await add(students(other), staff, ['s2600112']);
      await add(editors(), staff, ['t-0043']);
      const foreign = (await list(students(other))).pending[0]!.id;
      const editorEntry = (await list(editors())).pending[0]!.id;
      const res = await call(t, 'DELETE', students(), {
        token: editor,
        body: { pending_ids: [foreign, editorEntry] },
      });
      expect(res.body).toEqual({ removed: 0, removed_pending: 0 });
      const body = { pending_ids: [editorEntry] };
      expect((await call(t, 'DELETE', editors(), { token: editor, body })).status).toBe(403);
      expect((await call(t, 'DELETE', students(), { token: student, body })).status).toBe(403);
      expect((await call(t, 'DELETE', students(other), { token: outsider, body })).status).toBe(404);
      expect((await call(t, 'DELETE', editors(), { token: staff, body })).body).toEqual({
        removed: 0,
        removed_pending: 1,
      });
      expect(await pendingOf(students(other))).toEqual(['s2600112']);
    });

    it('refuses bad input', async () => {
      for (const body of [
        { user_ids: [], pending_ids: [] },
        { pending_ids: ['1'] },
        { pending_ids: [0] },
        { pending_ids: Array.from({ length: MAX_MEMBERS_PER_REQUEST + 1 }, (_, i) => i + 1) },
      ]) {
        const res = await call(t, 'DELETE', students(), { token: staff, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      }
    });
  });

  describe('joinPendingMemberships (the sign-in hook)', () => {
    const isOn = async (kind: MemberKind, course: number, userId: number) => {
      const table = kind === 'editor' ? courseEditors : courseStudents;
      const rows = await t.ctx.db
        .select()
        .from(table)
        .where(and(eq(table.courseId, course), eq(table.userId, userId)));
      return rows.length === 1;
    };
    const pendingRows = (institutionalId: string) =>
      t.ctx.db.select().from(pendingMembers).where(eq(pendingMembers.institutionalId, institutionalId));

    it('puts the person on every list holding one of their ids and drops those entries', async () => {
      const other = (await createCourse(t)).id;
      await add(students(), staff, ['S2600113']);
      await add(editors(other), staff, ['hanako@uni.ac.jp']);
      await add(students(other), staff, ['s2600114']);
      const person = await signedInWith('s2600113');
      const made = await t.ctx.db.transaction((tx) =>
        joinPendingMemberships(tx, person.id, ['s2600113', 'HANAKO@uni.ac.jp', 'S2600113']),
      );
      expect(made).toBe(2);
      expect(await isOn('student', courseId, person.id)).toBe(true);
      expect(await isOn('editor', other, person.id)).toBe(true);
      expect(await isOn('student', other, person.id)).toBe(false);
      expect(await pendingRows('S2600113')).toEqual([]);
      expect(await pendingRows('hanako@uni.ac.jp')).toEqual([]);
      // Someone else's entry stays.
      expect(await pendingRows('s2600114')).toHaveLength(1);
      // The list now shows a member where the pending entry was.
      const page = await list(students());
      expect(page.results.map((m) => m.id)).toContain(person.id);
      expect(page.pending).toEqual([]);
      // Signing in again makes nothing.
      expect(await t.ctx.db.transaction((tx) => joinPendingMemberships(tx, person.id, ['s2600113']))).toBe(0);
    });

    it('counts only new memberships, and does nothing without ids', async () => {
      await add(students(), staff, ['s2600115']);
      // Already a student (added by e-mail meanwhile): the entry goes, no second membership.
      expect(
        await t.ctx.db.transaction((tx) => joinPendingMemberships(tx, studentUserId, ['s2600115'])),
      ).toBe(0);
      expect(await pendingRows('s2600115')).toEqual([]);
      expect(await isOn('student', courseId, studentUserId)).toBe(true);
      expect(await joinPendingMemberships(t.ctx.db, studentUserId, [])).toBe(0);
      expect(await joinPendingMemberships(t.ctx.db, studentUserId, ['  '])).toBe(0);
    });

    it('rolls back with the sign-in that failed', async () => {
      await add(students(), staff, ['s2600116']);
      const person = await createUser(t);
      await expect(
        t.ctx.db.transaction(async (tx) => {
          await joinPendingMemberships(tx, person.id, ['s2600116']);
          throw new Error('sign-in failed later');
        }),
      ).rejects.toThrow('sign-in failed later');
      expect(await pendingRows('s2600116')).toHaveLength(1);
      expect(await isOn('student', courseId, person.id)).toBe(false);
    });
  });
});
