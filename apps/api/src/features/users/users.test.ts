import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SetPasswordLink, User, UserCreated, UserList } from '@kadai/contracts';
import { authSessions, users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { signIn } from '../auth/testing.ts';

let t: TestApp;
let staffToken: string;
beforeAll(async () => {
  t = await createTestApp();
  staffToken = await tokenFor(t, await createUser(t, { isStaff: true }));
});
afterAll(() => t.close());

const setPassword = (link: SetPasswordLink, password: string) =>
  call(t, 'POST', '/api/Auth/password/reset/confirm/', {
    body: { uid: link.uid, token: link.token, new_password1: password, new_password2: password },
  });

describe('GET /api/Auth/User/', () => {
  it('lists accounts for staff with count, page and the User shape', async () => {
    await createUser(t);
    const res = await call(t, 'GET', '/api/Auth/User/', { token: staffToken, query: { limit: '2' } });
    expect(res.status).toBe(200);
    const list = UserList.parse(res.body);
    expect(list.results).toHaveLength(2);
    expect(list.count).toBeGreaterThanOrEqual(2);
    expect(list).toMatchObject({ limit: 2, offset: 0 });
    expect(list.results[0]).toMatchObject({ has_password: true, is_active: true });
  });

  it('searches e-mail and names, matching % and _ literally', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const a = await createUser(t, { email: `${tag}_a@example.test` });
    const b = await createUser(t, { email: `${tag}xa@example.test` });
    const named = await createUser(t, { lastName: `Ota${tag}` });
    const percent = await createUser(t, { firstName: `100%${tag}` });
    const search = async (text: string) => {
      const res = await call(t, 'GET', '/api/Auth/User/', { token: staffToken, query: { search: text } });
      expect(res.status).toBe(200);
      return UserList.parse(res.body).results.map((u) => u.id);
    };
    expect(await search(`${tag}_`)).toEqual([a.id]);
    expect((await search(tag)).sort()).toEqual([a.id, b.id, named.id, percent.id].sort());
    expect(await search(`OTA${tag.toUpperCase()}`)).toEqual([named.id]);
    expect(await search(`%${tag}`)).toEqual([percent.id]);
    expect(await search('\\')).toEqual([]);
  });

  it('orders by e-mail and last name, both ways', async () => {
    const tag = `ord${Date.now().toString(36)}`;
    const zed = await createUser(t, { email: `${tag}-b@example.test`, lastName: 'Aoki' });
    const amy = await createUser(t, { email: `${tag}-a@example.test`, lastName: 'Wada' });
    const ids = async (ordering: string) => {
      const res = await call(t, 'GET', '/api/Auth/User/', {
        token: staffToken,
        query: { search: tag, ordering },
      });
      return UserList.parse(res.body).results.map((u) => u.id);
    };
    expect(await ids('email')).toEqual([amy.id, zed.id]);
    expect(await ids('-email')).toEqual([zed.id, amy.id]);
    expect(await ids('last_name')).toEqual([zed.id, amy.id]);
    expect(await ids('-last_name')).toEqual([amy.id, zed.id]);
    expect(await ids('-id')).toEqual([amy.id, zed.id]);
  });

  it('rejects pages over the cap and unknown orderings with 400', async () => {
    const queries: Record<string, string>[] = [
      { limit: '101' },
      { limit: '0' },
      { offset: '-1' },
      { ordering: 'password_hash' },
      { limit: 'ten' },
    ];
    for (const query of queries) {
      const res = await call(t, 'GET', '/api/Auth/User/', { token: staffToken, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('POST /api/Auth/User/', () => {
  it('opens an account without a password and returns a working set-password link', async () => {
    const res = await call(t, 'POST', '/api/Auth/User/', {
      token: staffToken,
      body: { email: 'New.Student@Example.test', first_name: 'Ken', last_name: 'Mori', roles: ['student'] },
    });
    expect(res.status).toBe(201);
    const created = UserCreated.parse(res.body);
    expect(created.user).toMatchObject({
      email: 'new.student@example.test',
      first_name: 'Ken',
      last_name: 'Mori',
      roles: ['student'],
      is_staff: false,
      has_password: false,
      display_lang: 'ja',
      last_login: null,
    });
    expect(created.set_password.url).toContain('http://lms.test/set-password?uid=');
    expect((await setPassword(created.set_password, 'quiet-river-stone-88')).status).toBe(200);
    await signIn(t, { email: 'new.student@example.test', password: 'quiet-river-stone-88' });
  });

  it('answers 409 for an e-mail already taken, whatever its case', async () => {
    const existing = await createUser(t);
    const res = await call(t, 'POST', '/api/Auth/User/', {
      token: staffToken,
      body: { email: existing.email.toUpperCase() },
    });
    expect(res.status).toBe(409);
    expect(res.json.email).toEqual(['A user with that email address already exists.']);
  });

  it('rejects bad input: missing or invalid e-mail, unknown roles, unknown fields, wrong types', async () => {
    const bodies = [
      {},
      { email: 'not-an-email' },
      { email: 'ok@example.test', roles: ['emperor'] },
      { email: 'ok@example.test', roles: [] },
      { email: 'ok@example.test', password_hash: 'x' },
      { email: 'ok@example.test', is_staff: 'yes' },
      { email: 'ok@example.test', display_lang: 'fr' },
    ];
    for (const body of bodies) {
      const res = await call(t, 'POST', '/api/Auth/User/', { token: staffToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(t, 'POST', '/api/Auth/User/', { token: staffToken, body: '{"email":' })).status).toBe(
      400,
    );
    const huge = await call(t, 'POST', '/api/Auth/User/', {
      token: staffToken,
      body: { email: 'a@example.test', first_name: 'x'.repeat(2_200_000) },
    });
    expect(huge.status).toBe(413);
  });
});

describe('POST /api/Auth/User/{id}/set-password-link/', () => {
  it('gives staff a fresh link that works, and 404 for unknown or malformed ids', async () => {
    const user = await createUser(t, { password: null });
    const res = await call(t, 'POST', `/api/Auth/User/${user.id}/set-password-link/`, { token: staffToken });
    expect(res.status).toBe(200);
    const link = SetPasswordLink.parse(res.body);
    expect((await setPassword(link, 'violet-canyon-echo-14')).status).toBe(200);
    for (const id of ['999999', 'abc', '0', '-3', '1.5', '99999999999']) {
      const missing = await call(t, 'POST', `/api/Auth/User/${id}/set-password-link/`, { token: staffToken });
      expect(missing.status, id).toBe(404);
    }
  });
});

describe('GET /api/Auth/User/{id}/', () => {
  it('shows a user their own account and staff anyone; others get 404', async () => {
    const me = await createUser(t, { firstName: 'Aiko' });
    const other = await createUser(t);
    const token = await tokenFor(t, me);
    const own = await call(t, 'GET', `/api/Auth/User/${me.id}/`, { token });
    expect(own.status).toBe(200);
    expect(User.parse(own.body)).toMatchObject({ id: me.id, first_name: 'Aiko', email: me.email });
    expect((await call(t, 'GET', `/api/Auth/User/${other.id}/`, { token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/Auth/User/${other.id}/`, { token: staffToken })).status).toBe(200);
    expect((await call(t, 'GET', '/api/Auth/User/999999/', { token: staffToken })).status).toBe(404);
    expect((await call(t, 'GET', '/api/Auth/User/me/', { token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/Auth/User/${me.id}`, { token })).status).toBe(200);
  });
});

describe('PATCH and PUT /api/Auth/User/{id}/', () => {
  it('lets users change their own names and language', async () => {
    const me = await createUser(t);
    const token = await tokenFor(t, me);
    const res = await call(t, 'PATCH', `/api/Auth/User/${me.id}/`, {
      token,
      body: { first_name: '  Sora ', display_lang: 'en-US' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ first_name: 'Sora', last_name: 'User', display_lang: 'en-US' });
    const info = await call(t, 'GET', '/api/Auth/UserInfo/', { token });
    expect(info.json.display_lang).toBe('en-US');
  });

  it('answers 403 when a non-staff user sends a staff-only field, even for themself', async () => {
    const me = await createUser(t);
    const token = await tokenFor(t, me);
    for (const body of [
      { is_staff: true },
      { roles: ['instructor'] },
      { is_active: true },
      { email: 'me2@example.test' },
    ]) {
      const res = await call(t, 'PATCH', `/api/Auth/User/${me.id}/`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, me.id));
    expect(row).toMatchObject({ isStaff: false, roles: ['no_role'], email: me.email });
  });

  it('answers 404, not 403, for someone else’s account', async () => {
    const token = await tokenFor(t, await createUser(t));
    const other = await createUser(t);
    const res = await call(t, 'PATCH', `/api/Auth/User/${other.id}/`, { token, body: { is_staff: true } });
    expect(res.status).toBe(404);
  });

  it('lets staff change e-mail, roles and flags; a taken e-mail is 409', async () => {
    const user = await createUser(t);
    const taken = await createUser(t);
    const res = await call(t, 'PATCH', `/api/Auth/User/${user.id}/`, {
      token: staffToken,
      body: {
        email: `Renamed-${user.id}@Example.test`,
        roles: ['teaching_assistant', 'teaching_assistant'],
        is_staff: true,
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      email: `renamed-${user.id}@example.test`,
      roles: ['teaching_assistant'],
      is_staff: true,
    });
    const clash = await call(t, 'PATCH', `/api/Auth/User/${user.id}/`, {
      token: staffToken,
      body: { email: taken.email.toUpperCase() },
    });
    expect(clash.status).toBe(409);
    expect(clash.json.email).toBeInstanceOf(Array);
  });

  it('ends the sessions of an account staff deactivate', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user);
    const res = await call(t, 'PATCH', `/api/Auth/User/${user.id}/`, {
      token: staffToken,
      body: { is_active: false },
    });
    expect(res.status).toBe(200);
    await call(t, 'PATCH', `/api/Auth/User/${user.id}/`, { token: staffToken, body: { is_active: true } });
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: session.access })).status).toBe(401);
    const sessions = await t.ctx.db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    expect(sessions.every((s) => s.revokedReason === 'deactivated')).toBe(true);
  });

  it('does not let staff remove their own staff or active flag', async () => {
    const staff = await createUser(t, { isStaff: true });
    const token = await tokenFor(t, staff);
    for (const body of [{ is_staff: false }, { is_active: false }]) {
      const res = await call(t, 'PATCH', `/api/Auth/User/${staff.id}/`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await call(t, 'PATCH', `/api/Auth/User/${staff.id}/`, { token, body: { is_staff: true } })).status,
    ).toBe(200);
  });

  it('PUT replaces the editable fields and requires all of them', async () => {
    const me = await createUser(t, { firstName: 'Old', lastName: 'Name' });
    const token = await tokenFor(t, me);
    const partial = await call(t, 'PUT', `/api/Auth/User/${me.id}/`, { token, body: { first_name: 'New' } });
    expect(partial.status).toBe(400);
    expect(Object.keys(partial.json)).toEqual(expect.arrayContaining(['last_name', 'display_lang']));
    const res = await call(t, 'PUT', `/api/Auth/User/${me.id}/`, {
      token,
      body: { first_name: 'New', last_name: '', display_lang: 'en-US' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ first_name: 'New', last_name: '', display_lang: 'en-US' });
    const sneaky = await call(t, 'PUT', `/api/Auth/User/${me.id}/`, {
      token,
      body: { first_name: 'New', last_name: '', display_lang: 'en-US', is_staff: true },
    });
    expect(sneaky.status).toBe(403);
  });

  it('rejects unknown fields, wrong types, bad JSON and unknown ids', async () => {
    const me = await createUser(t);
    const token = await tokenFor(t, me);
    for (const body of [
      { password_hash: 'x' },
      { first_name: 5 },
      { display_lang: 'de' },
      { first_name: 'x'.repeat(151) },
    ]) {
      const res = await call(t, 'PATCH', `/api/Auth/User/${me.id}/`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(t, 'PATCH', `/api/Auth/User/${me.id}/`, { token, body: '{' })).status).toBe(400);
    const unknown = await call(t, 'PATCH', '/api/Auth/User/999999/', {
      token: staffToken,
      body: { first_name: 'x' },
    });
    expect(unknown.status).toBe(404);
    // An empty PATCH is refused before any object is looked up (docs/development.md, "Input").
    expect((await call(t, 'PATCH', `/api/Auth/User/${me.id}/`, { token, body: {} })).json.code).toBe(
      'nothing_to_change',
    );
    expect((await call(t, 'PUT', '/api/Auth/User/x/', { token: staffToken, body: {} })).status).toBe(404);
  });
});

describe('DELETE /api/Auth/User/{id}/', () => {
  it('lets a user delete their own account: memberships and sessions go with it', async () => {
    const me = await createUser(t);
    const course = await createCourse(t);
    await addStudent(t, course.id, me.id);
    const session = await signIn(t, me);
    const res = await call(t, 'DELETE', `/api/Auth/User/${me.id}/`, { token: session.access });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: session.access })).status).toBe(401);
    expect(
      (await call(t, 'POST', '/api/Auth/Token/Refresh/', { body: { refresh: session.refresh } })).status,
    ).toBe(401);
  });

  it('lets staff delete others but not themselves; others’ ids are 404 for non-staff', async () => {
    const victim = await createUser(t);
    const bystander = await createUser(t);
    const token = await tokenFor(t, bystander);
    expect((await call(t, 'DELETE', `/api/Auth/User/${victim.id}/`, { token })).status).toBe(404);
    expect((await call(t, 'DELETE', `/api/Auth/User/${victim.id}/`, { token: staffToken })).status).toBe(204);
    expect((await call(t, 'DELETE', `/api/Auth/User/${victim.id}/`, { token: staffToken })).status).toBe(404);

    const staff = await createUser(t, { isStaff: true });
    const own = await call(t, 'DELETE', `/api/Auth/User/${staff.id}/`, { token: await tokenFor(t, staff) });
    expect(own.status).toBe(400);
    expect((await call(t, 'DELETE', '/api/Auth/User/abc/', { token: staffToken })).status).toBe(404);
  });
});
