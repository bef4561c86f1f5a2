import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { ROLES, TokenPair, UserInfo } from '@kadai/contracts';
import { authSessions, refreshTokens, users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser } from '../../../test/factories.ts';
import { hashToken, signAccessToken, verifyAccessToken } from './tokens.ts';
import { signIn } from './testing.ts';

const refresh = (t: TestApp, token: unknown) =>
  call(t, 'POST', '/api/Auth/Token/Refresh/', { body: { refresh: token } });
const userInfo = (t: TestApp, token: string) => call(t, 'GET', '/api/Auth/UserInfo/', { token });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/Auth/Token/Refresh/', () => {
  it('rotates: a new pair in the same session, and the old refresh token is spent', async () => {
    const first = await signIn(t, await createUser(t));
    const res = await refresh(t, first.refresh);
    expect(res.status).toBe(200);
    const next = TokenPair.parse(res.body);
    expect(next.refresh).not.toBe(first.refresh);
    expect((await userInfo(t, next.access)).status).toBe(200);
    // The access token of the same session keeps working until it expires.
    expect((await userInfo(t, first.access)).status).toBe(200);

    const third = await refresh(t, next.refresh);
    expect(third.status).toBe(200);
  });

  it('treats a spent token coming back as theft: 401 token_reused and the whole session ends', async () => {
    const first = await signIn(t, await createUser(t));
    const second = TokenPair.parse((await refresh(t, first.refresh)).body);

    const reused = await refresh(t, first.refresh);
    expect(reused.status).toBe(401);
    expect(reused.json.code).toBe('token_reused');

    // Every token of the family is dead at once: access tokens old and new, and the latest refresh.
    for (const access of [first.access, second.access]) {
      const res = await userInfo(t, access);
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('token_not_valid');
    }
    const latest = await refresh(t, second.refresh);
    expect(latest.status).toBe(401);
    expect(latest.json.code).toBe('token_not_valid');
  });

  it('gives one success and one 401 to two concurrent refreshes of the same token', async () => {
    const pair = await signIn(t, await createUser(t));
    const results = await Promise.all([refresh(t, pair.refresh), refresh(t, pair.refresh)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const used = await t.ctx.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(pair.refresh)));
    expect(used[0]!.usedAt).not.toBeNull();
  });

  it('rejects unknown, expired and revoked tokens with token_not_valid', async () => {
    const unknown = await refresh(t, 'not-a-token-we-issued');
    expect(unknown.status).toBe(401);
    expect(unknown.json.code).toBe('token_not_valid');

    const expiring = await signIn(t, await createUser(t));
    await t.ctx.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, hashToken(expiring.refresh)));
    const expired = await refresh(t, expiring.refresh);
    expect(expired.status).toBe(401);
    expect(expired.json.code).toBe('token_not_valid');

    const loggedOut = await signIn(t, await createUser(t));
    await call(t, 'POST', '/api/Auth/Logout/', { token: loggedOut.access, body: {} });
    const revoked = await refresh(t, loggedOut.refresh);
    expect(revoked.status).toBe(401);
    expect(revoked.json.code).toBe('token_not_valid');
  });

  it('stops refreshing once the account is deactivated', async () => {
    const user = await createUser(t);
    const pair = await signIn(t, user);
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect((await refresh(t, pair.refresh)).status).toBe(401);
    expect((await userInfo(t, pair.access)).status).toBe(401);
  });

  it('rejects missing, empty, wrong-typed and oversize refresh values with 400', async () => {
    for (const body of [{}, { refresh: '' }, { refresh: 12 }, { refresh: 'x'.repeat(513) }]) {
      const res = await call(t, 'POST', '/api/Auth/Token/Refresh/', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.refresh).toBeInstanceOf(Array);
    }
    expect((await call(t, 'POST', '/api/Auth/Token/Refresh/', { body: '{"refresh":' })).status).toBe(400);
  });

  it('keeps the revocation reason on the session', async () => {
    const pair = await signIn(t, await createUser(t));
    await refresh(t, pair.refresh);
    await refresh(t, pair.refresh);
    const rows = await t.ctx.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.revokedReason, 'token_reused'));
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('POST /api/Auth/Logout/', () => {
  it('ends the current session at once; other devices stay signed in', async () => {
    const user = await createUser(t);
    const laptop = await signIn(t, user);
    const phone = await signIn(t, user);
    const res = await call(t, 'POST', '/api/Auth/Logout/', { token: laptop.access, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'Successfully logged out.', sso_logout_url: null });
    expect((await userInfo(t, laptop.access)).status).toBe(401);
    expect((await refresh(t, laptop.refresh)).status).toBe(401);
    expect((await userInfo(t, phone.access)).status).toBe(200);
  });

  it('accepts a request without a body', async () => {
    const pair = await signIn(t, await createUser(t));
    expect((await call(t, 'POST', '/api/Auth/Logout/', { token: pair.access })).status).toBe(200);
    expect((await userInfo(t, pair.access)).status).toBe(401);
  });

  it('with all=true ends every session of the user, and only theirs', async () => {
    const user = await createUser(t);
    const other = await signIn(t, await createUser(t));
    const sessions = [await signIn(t, user), await signIn(t, user), await signIn(t, user)];
    const res = await call(t, 'POST', '/api/Auth/Logout/', {
      token: sessions[0]!.access,
      body: { all: true },
    });
    expect(res.status).toBe(200);
    for (const s of sessions) expect((await userInfo(t, s.access)).status).toBe(401);
    expect((await userInfo(t, other.access)).status).toBe(200);
  });

  it('also ends the session of the refresh token sent, if it is the caller’s own', async () => {
    const user = await createUser(t);
    const a = await signIn(t, user);
    const b = await signIn(t, user);
    const stranger = await signIn(t, await createUser(t));
    await call(t, 'POST', '/api/Auth/Logout/', { token: a.access, body: { refresh: b.refresh } });
    expect((await userInfo(t, b.access)).status).toBe(401);
    await call(t, 'POST', '/api/Auth/Logout/', {
      token: (await signIn(t, user)).access,
      body: { refresh: stranger.refresh },
    });
    expect((await userInfo(t, stranger.access)).status).toBe(200);
  });

  it('requires a signed-in caller and a well-formed body', async () => {
    expect((await call(t, 'POST', '/api/Auth/Logout/', { body: {} })).status).toBe(401);
    const pair = await signIn(t, await createUser(t));
    const bad = await call(t, 'POST', '/api/Auth/Logout/', { token: pair.access, body: { all: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json.all).toBeInstanceOf(Array);
  });
});

describe('access tokens', () => {
  it('are refused when forged, expired, malformed or of a session that never existed', async () => {
    const user = await createUser(t);
    const forged = await signAccessToken('another-secret-that-is-long-enough-0123456789', 3600, {
      userId: user.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
    });
    const expired = await signAccessToken(t.config.JWT_SECRET, -10, {
      userId: user.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
    });
    const noSession = await signAccessToken(t.config.JWT_SECRET, 3600, {
      userId: user.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
    });
    for (const token of [forged, expired, noSession, 'garbage']) {
      const res = await userInfo(t, token);
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('token_not_valid');
    }
    const scheme = await call(t, 'GET', '/api/Auth/UserInfo/', { headers: { authorization: 'Basic abc' } });
    expect(scheme.status).toBe(401);
  });

  it('are refused like every invalid token when well signed but without exp or iat, or too long-lived', async () => {
    const user = await createUser(t);
    const pair = await signIn(t, user);
    const { sessionId } = (await verifyAccessToken(
      t.config.JWT_SECRET,
      t.config.ACCESS_TOKEN_LIFETIME,
      pair.access,
    ))!;
    // Signed with the server's own secret for a live session: only the lifetime claims are wrong.
    const sign = (claims: { iat?: number; exp?: number }) =>
      new SignJWT({ sid: sessionId, token_type: 'access', user_id: user.id, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(user.id))
        .sign(new TextEncoder().encode(t.config.JWT_SECRET));
    const now = Math.floor(Date.now() / 1000);
    const lifetime = t.config.ACCESS_TOKEN_LIFETIME;
    const tokens = {
      noExp: await sign({ iat: now }),
      noIat: await sign({ exp: now + 600 }),
      tooLong: await sign({ iat: now, exp: now + lifetime + 1 }),
      ourSignerTooLong: await signAccessToken(t.config.JWT_SECRET, lifetime + 3600, {
        userId: user.id,
        sessionId,
      }),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const res = await userInfo(t, token);
      expect(res.status, name).toBe(401);
      expect(res.body, name).toEqual({
        detail: 'Given token not valid for any token type',
        code: 'token_not_valid',
      });
    }
    const justRight = await sign({ iat: now, exp: now + lifetime });
    expect((await userInfo(t, justRight)).status).toBe(200);
  });

  it('live longer than the client’s 3600 s refresh threshold', async () => {
    const pair = await signIn(t, await createUser(t));
    const payload = JSON.parse(Buffer.from(pair.access.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(3600);
  });
});

describe('GET /api/Auth/UserInfo/ and /api/Auth/RolesList/', () => {
  it('describes the signed-in user with the courses they edit and study', async () => {
    const user = await createUser(t, { firstName: 'Hanako', lastName: 'Yamada', roles: ['instructor'] });
    const [edited, studied, unrelated] = [
      await createCourse(t),
      await createCourse(t),
      await createCourse(t),
    ];
    await addEditor(t, edited.id, user.id);
    await addStudent(t, studied.id, user.id);
    expect(unrelated.id).toBeGreaterThan(0);
    const pair = await signIn(t, user);
    const res = await userInfo(t, pair.access);
    expect(res.status).toBe(200);
    expect(UserInfo.parse(res.body)).toEqual({
      id: user.id,
      email: user.email,
      first_name: 'Hanako',
      last_name: 'Yamada',
      roles: ['instructor'],
      is_staff: false,
      editor_courses: [edited.id],
      student_courses: [studied.id],
      display_lang: 'ja',
    });
  });

  it('shows staff and drops roles the API does not know', async () => {
    const user = await createUser(t, { isStaff: true, roles: ['retired_role'] });
    const res = await userInfo(t, (await signIn(t, user)).access);
    expect(res.json.is_staff).toBe(true);
    expect(res.json.roles).toEqual(['no_role']);
  });

  it('lists every role', async () => {
    const pair = await signIn(t, await createUser(t));
    const res = await call(t, 'GET', '/api/Auth/RolesList/', { token: pair.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ roles: [...ROLES] });
  });

  it('answer 401 without a token', async () => {
    expect((await call(t, 'GET', '/api/Auth/UserInfo/')).status).toBe(401);
    expect((await call(t, 'GET', '/api/Auth/RolesList/')).status).toBe(401);
  });
});
