import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loginThrottle, users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, TEST_PASSWORD, tokenFor } from '../../../test/factories.ts';
import { findUserById } from '../users/users.repo.ts';
import { createSetPasswordLink, encodeUid } from './set-password-link.ts';
import { signIn } from './testing.ts';

const NEW_PASSWORD = 'lantern-orbit-meadow-57';
const MISMATCH = 'The two password fields didn’t match.';
const OLD_MISSING = 'Enter your current password.';
const OLD_INCORRECT = 'Your old password was entered incorrectly. Please enter it again.';
/** A change with the factories' password as the current one. */
const withOld = (password1: string, password2 = password1) => ({
  old_password: TEST_PASSWORD,
  new_password1: password1,
  new_password2: password2,
});

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

    const res = await change(here.access, withOld(NEW_PASSWORD));
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
    const res = await change(token, withOld(NEW_PASSWORD, `${NEW_PASSWORD}x`));
    expect(res.status).toBe(400);
    expect(res.json.new_password2).toEqual([MISMATCH]);
  });

  it('writes the messages in Japanese when the client reads Japanese', async () => {
    const token = await tokenFor(t, await createUser(t));
    const res = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja' },
      body: withOld('password'),
    });
    expect(res.status).toBe(400);
    expect(res.json.new_password2).toEqual(['このパスワードは一般的すぎます。']);
    const mismatch = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
      body: withOld(NEW_PASSWORD, `${NEW_PASSWORD}x`),
    });
    expect(mismatch.json.new_password2).toEqual(['確認用パスワードが一致しません。']);
    const wrongOld = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja' },
      body: { old_password: 'not-my-password-1', new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
    });
    expect(wrongOld.json.old_password).toEqual([
      '現在のパスワードが正しくありません。もう一度入力してください。',
    ]);
    const noOld = await call(t, 'POST', '/api/Auth/password/change/', {
      token,
      headers: { 'accept-language': 'ja' },
      body: { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
    });
    expect(noOld.json.old_password).toEqual(['現在のパスワードを入力してください。']);
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
      const res = await change(token, withOld(password));
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
      (await change(token, { ...withOld(NEW_PASSWORD), old_password: 42 })).json.old_password,
    ).toBeInstanceOf(Array);
    expect((await change(undefined, withOld(NEW_PASSWORD))).status).toBe(401);
  });
});

describe('POST /api/Auth/password/change/: the current password', () => {
  it('refuses a wrong or missing current password with 400 under old_password, and changes nothing', async () => {
    const user = await createUser(t);
    const here = await signIn(t, user);
    const elsewhere = await signIn(t, user);
    const [before] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    const bodies = {
      wrong: { old_password: 'not-my-password-1', new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
      missing: { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
      empty: { old_password: '', new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
    };
    const expected = { wrong: OLD_INCORRECT, missing: OLD_MISSING, empty: OLD_MISSING };
    for (const [name, body] of Object.entries(bodies)) {
      const res = await change(here.access, body);
      expect(res.status, name).toBe(400);
      expect(res.json, name).toEqual({
        detail: 'Invalid input.',
        code: 'invalid',
        old_password: [expected[name as keyof typeof expected]],
      });
    }
    const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(after!.passwordChangedAt).toEqual(before!.passwordChangedAt);
    // No session ended, and the old password still signs in.
    expect((await userInfo(elsewhere.access)).status).toBe(200);
    await signIn(t, user);
  });

  it('names every field at fault at once: the current password and the new one', async () => {
    const token = await tokenFor(t, await createUser(t));
    const res = await change(token, {
      old_password: 'not-my-password-1',
      new_password1: 'password',
      new_password2: 'password',
    });
    expect(res.status).toBe(400);
    expect(res.json.old_password).toEqual([OLD_INCORRECT]);
    expect(res.json.new_password2).toEqual(['This password is too common.']);
  });

  it('is not asked of an account without a password (signed up through Google), until it has one', async () => {
    const user = await createUser(t, { password: null });
    const token = await tokenFor(t, user);
    const res = await change(token, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await call(t, 'GET', `/api/Auth/User/${user.id}/`, { token })).json.has_password).toBe(true);
    await signIn(t, { email: user.email, password: NEW_PASSWORD });
    // From now on it has one, so it is asked for it.
    const next = await change(token, {
      new_password1: 'second-pass-phrase-8',
      new_password2: 'second-pass-phrase-8',
    });
    expect(next.status).toBe(400);
    expect(next.json.old_password).toEqual([OLD_MISSING]);
  });

  it('is throttled as sign-in is, sharing its counters: 429 after 5 wrong guesses, even with the right one', async () => {
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    const guess = (old: string) =>
      change(token, { old_password: old, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    for (let i = 0; i < 5; i++) expect((await guess(`wrong-guess-${i}`)).status).toBe(400);
    const blocked = await guess(TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe('throttled');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The guesses count against the account's sign-in too: together they get 5, not 5 each.
    expect((await call(t, 'POST', '/api/Auth/Token/', { body: user })).status).toBe(429);
    // Move the window into the past rather than wait 15 minutes: then the right password changes it.
    const windowStart = new Date(Date.now() - (t.config.LOGIN_THROTTLE_WINDOW + 1) * 1000);
    await t.ctx.db.update(loginThrottle).set({ windowStartedAt: windowStart });
    expect((await guess(TEST_PASSWORD)).status).toBe(200);
  });

  it('starts the account’s count afresh when the right password is given', async () => {
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    const wrongGuesses = async () => {
      for (let i = 0; i < 4; i++) {
        const res = await change(token, { ...withOld(NEW_PASSWORD), old_password: `wrong-guess-${i}` });
        expect(res.json.old_password).toEqual([OLD_INCORRECT]);
      }
    };
    await wrongGuesses();
    // The right current password with a refused new one: the count starts again, nothing changes.
    const refusedNew = await change(token, withOld('password'));
    expect(refusedNew.json.old_password).toBeUndefined();
    expect(refusedNew.json.new_password2).toEqual(['This password is too common.']);
    await wrongGuesses();
    // Eight failures in the window, but never more than four since the last success.
    expect((await change(token, withOld(NEW_PASSWORD))).status).toBe(200);
  });
});

describe('POST /api/Auth/password/reset/confirm/', () => {
  it('does not ask for the current password: the link stands for it', async () => {
    const user = await createUser(t);
    const link = await linkFor(user.id);
    const res = await confirm({
      uid: link.uid,
      token: link.token,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    await signIn(t, { email: user.email, password: NEW_PASSWORD });
  });

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
