import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, eventually, type TestApp } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';
import { signIn } from './testing.ts';

/*
 * Remembered sessions (lib/session-cache.ts) against the real database: a change made outside this
 * process — here raw SQL, as another API instance or an administrator with psql would — reaches the
 * cache through the triggers of migration 0010 and PostgreSQL's NOTIFY.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userInfo = (token: string) => call(t, 'GET', '/api/Auth/UserInfo/', { token });
const outbox = (token: string) => call(t, 'GET', '/api/Mail/outbox/', { token });

describe('remembered sessions', () => {
  it('remember a caller after the first request', async () => {
    const user = await createUser(t);
    const { access } = await signIn(t, user);
    const before = t.ctx.sessions.size;
    expect((await userInfo(access)).status).toBe(200);
    expect(t.ctx.sessions.size).toBe(before + 1);
    expect((await userInfo(access)).status).toBe(200);
    expect(t.ctx.sessions.size).toBe(before + 1);
  });

  it('end when the session is revoked outside this process', async () => {
    const user = await createUser(t);
    const { access } = await signIn(t, user);
    expect((await userInfo(access)).status).toBe(200);
    await t.database.query(`UPDATE auth_sessions SET revoked_at = now() WHERE user_id = $1`, [user.id]);
    await eventually(async () => (await userInfo(access)).status === 401);
  });

  it('end when the account is deactivated or deleted outside this process', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const tokenA = (await signIn(t, a)).access;
    const tokenB = (await signIn(t, b)).access;
    expect((await userInfo(tokenA)).status).toBe(200);
    expect((await userInfo(tokenB)).status).toBe(200);
    await t.database.query(`UPDATE users SET is_active = false WHERE id = $1`, [a.id]);
    await t.database.query(`DELETE FROM users WHERE id = $1`, [b.id]);
    await eventually(async () => (await userInfo(tokenA)).status === 401);
    await eventually(async () => (await userInfo(tokenB)).status === 401);
  });

  it('follow a change of staff status made outside this process, both ways', async () => {
    const user = await createUser(t, { isStaff: true });
    const { access } = await signIn(t, user);
    expect((await outbox(access)).status).toBe(200);
    await t.database.query(`UPDATE users SET is_staff = false WHERE id = $1`, [user.id]);
    await eventually(async () => (await outbox(access)).status === 403);
    await t.database.query(`UPDATE users SET is_staff = true WHERE id = $1`, [user.id]);
    await eventually(async () => (await outbox(access)).status === 200);
  });

  it('follow a change of staff status made through the API at once', async () => {
    const staff = await signIn(t, await createUser(t, { isStaff: true }));
    const user = await createUser(t, { isStaff: true });
    const { access } = await signIn(t, user);
    expect((await outbox(access)).status).toBe(200);
    const res = await call(t, 'PATCH', `/api/Auth/User/${user.id}/`, {
      token: staff.access,
      body: { is_staff: false },
    });
    expect(res.status).toBe(200);
    // No waiting: this process forgot the user when it changed them.
    expect((await outbox(access)).status).toBe(403);
  });

  it('are not kept while the listening connection is down', async () => {
    const { access } = await signIn(t, await createUser(t));
    t.ctx.sessions.setListening(false);
    try {
      expect((await userInfo(access)).status).toBe(200);
      expect(t.ctx.sessions.size).toBe(0);
    } finally {
      t.ctx.sessions.setListening(true);
    }
  });
});
