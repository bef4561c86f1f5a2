import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { findUserById } from '../users/users.repo.ts';
import { createSetPasswordLink, encodeUid } from './set-password-link.ts';
import { signIn } from './testing.ts';

const NEW_PASSWORD = 'lantern-orbit-meadow-57';
const MISMATCH = 'The two password fields didn’t match.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const change = (token: string | undefined, body: unknown) =>
  call(t, 'POST', '/api/Auth/password/change/', { token, body });
const confirm = (body: unknown) => call(t, 'POST', '/api/Auth/password/reset/confirm/', { body });
const userInfo = (token: string) => call(t, 'GET', '/api/Auth/UserInfo/', { token });

async function linkFor(userId: number) {
  const row = await findUserById(t.ctx.db, userId);
  return createSetPasswordLink(t.config, row!);
}

describe('POST /api/Auth/password/change/', () => {
  it('saves the password, keeps the current session and ends every other one', async () => {
    const user = await createUser(t);
    const here = await signIn(t, user);
    const elsewhere = await signIn(t, user);
    const [before] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));

    const res = await change(here.access, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'New password has been saved.' });

    expect((await userInfo(here.access)).status).toBe(200);
    expect((await userInfo(elsewhere.access)).status).toBe(401);
    const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordChangedAt.getTime()).toBeGreaterThan(before!.passwordChangedAt.getTime());

    const old = await call(t, 'POST', '/api/Auth/Token/', { body: user });
    expect(old.status).toBe(401);
    await signIn(t, { email: user.email, password: NEW_PASSWORD });
  });

  it('answers a mismatch under new_password2, as Django does', async () => {
    const token = await tokenFor(t, await createUser(t));
    const res = await change(token, { new_password1: NEW_PASSWORD, new_password2: `${NEW_PASSWORD}x` });
    expect(res.status).toBe(400);
    expect(res.json.new_password2).toEqual([MISMATCH]);
  });

  it('writes the messages in Japanese when the client reads Japanese', async () => {
    const token = await tokenFor(t, await createUser(t));
    const res = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja' },
      body: { new_password1: 'password', new_password2: 'password' },
    });
    expect(res.status).toBe(400);
    expect(res.json.new_password2).toEqual(['このパスワードは一般的すぎます。']);
    const mismatch = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
      body: { new_password1: NEW_PASSWORD, new_password2: `${NEW_PASSWORD}x` },
    });
    expect(mismatch.json.new_password2).toEqual(['確認用パスワードが一致しません。']);
  });

  it('lists every broken rule under new_password2, first the one the page shows', async () => {
    const user = await createUser(t, { email: 'takeshi.kaneshiro@example.test' });
    const token = await tokenFor(t, user);
    const cases: [string, string[]][] = [
      ['xQ7#kp2', ['This password is too short. It must contain at least 8 characters.']],
      ['password123', ['This password is too common.']],
      ['48213975610', ['This password is entirely numeric.']],
      ['Kaneshiro!', ['The password is too similar to the email address.']],
      [
        '1234',
        [
          'This password is too short. It must contain at least 8 characters.',
          'This password is too common.',
          'This password is entirely numeric.',
        ],
      ],
    ];
    for (const [password, messages] of cases) {
      const res = await change(token, { new_password1: password, new_password2: password });
      expect(res.status, password).toBe(400);
      expect(res.json.new_password2, password).toEqual(messages);
    }
    // Nothing was changed by the refused attempts.
    await signIn(t, user);
  });

  it('rejects missing fields, wrong types and anonymous callers', async () => {
    const token = await tokenFor(t, await createUser(t));
    const missing = await change(token, { new_password1: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.json.new_password2).toBeInstanceOf(Array);
    const wrongType = await change(token, { new_password1: 12345678, new_password2: 12345678 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.new_password1).toBeInstanceOf(Array);
    expect((await change(token, '{"new_password1"')).status).toBe(400);
    expect(
      (await change(undefined, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).status,
    ).toBe(401);
  });
});

describe('POST /api/Auth/password/reset/confirm/', () => {
  it('sets the password from a valid link and ends every session', async () => {
    const user = await createUser(t, { password: null });
    const session = await tokenFor(t, user);
    const link = await linkFor(user.id);
    const res = await confirm({
      uid: link.uid,
      token: link.token,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'Password has been reset with the new password.' });
    expect((await userInfo(session)).status).toBe(401);
    await signIn(t, { email: user.email, password: NEW_PASSWORD });
  });

  it('works once: the same link is refused after use', async () => {
    const user = await createUser(t);
    const link = await linkFor(user.id);
    const body = {
      uid: link.uid,
      token: link.token,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    };
    expect((await confirm(body)).status).toBe(200);
    const again = await confirm({
      ...body,
      new_password1: 'second-try-pass-91',
      new_password2: 'second-try-pass-91',
    });
    expect(again.status).toBe(400);
    expect(again.json.token).toEqual(['Invalid value']);
  });

  it('refuses an expired link', async () => {
    const user = await createUser(t);
    const row = await findUserById(t.ctx.db, user.id);
    const issued = new Date(Date.now() - (t.config.SET_PASSWORD_LINK_LIFETIME + 60) * 1000);
    const link = createSetPasswordLink(t.config, row!, issued);
    const res = await confirm({
      uid: link.uid,
      token: link.token,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.json.token).toEqual(['Invalid value']);
  });

  it('refuses a wrong, unknown or malformed uid, and a token made for someone else', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const link = await linkFor(user.id);
    const passwords = { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD };
    for (const uid of [encodeUid(999_999), 'not base64 ☃', encodeUid(0), 'LTE']) {
      const res = await confirm({ uid, token: link.token, ...passwords });
      expect(res.status, uid).toBe(400);
      expect(res.json.uid).toEqual(['Invalid value']);
    }
    const swapped = await confirm({ uid: encodeUid(other.id), token: link.token, ...passwords });
    expect(swapped.status).toBe(400);
    expect(swapped.json.token).toEqual(['Invalid value']);
    const garbage = await confirm({ uid: link.uid, token: 'abc-def', ...passwords });
    expect(garbage.json.token).toEqual(['Invalid value']);
  });

  it('refuses a link of a deactivated account', async () => {
    const user = await createUser(t);
    const link = await linkFor(user.id);
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await confirm({
      uid: link.uid,
      token: link.token,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.json.uid).toEqual(['Invalid value']);
  });

  it('checks the passwords like a change, and leaves the link usable after a refusal', async () => {
    const user = await createUser(t, { email: 'mariko@example.test' });
    const link = await linkFor(user.id);
    const base = { uid: link.uid, token: link.token };
    const mismatch = await confirm({ ...base, new_password1: NEW_PASSWORD, new_password2: 'other-thing-73' });
    expect(mismatch.json.new_password2).toEqual([MISMATCH]);
    const common = await confirm({ ...base, new_password1: 'iloveyou', new_password2: 'iloveyou' });
    expect(common.status).toBe(400);
    expect(common.json.new_password2).toEqual(['This password is too common.']);
    const ok = await confirm({ ...base, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('rejects missing fields and wrong types with 400', async () => {
    const missing = await confirm({ new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.json)).toEqual(expect.arrayContaining(['uid', 'token']));
    const wrongType = await confirm({
      uid: 1,
      token: null,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(wrongType.status).toBe(400);
    const huge = await confirm({
      uid: 'x',
      token: 'y',
      new_password1: 'z'.repeat(3_000_000),
      new_password2: 'z',
    });
    expect(huge.status).toBe(413);
  });
});
