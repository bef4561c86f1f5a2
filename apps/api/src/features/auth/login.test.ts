import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LoginResponse } from '@kadai/contracts';
import { authSessions, refreshTokens, users } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { hashToken, verifyAccessToken } from './tokens.ts';

const INVALID = {
  detail: 'No active account found with the given credentials',
  code: 'invalid_credentials',
};

describe.each(['/api/Auth/Token/', '/api/Auth/Email/Login/'])('POST %s', (path) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in: a token pair, the user, a session with device details, last_login set', async () => {
    const user = await createUser(t, { email: 'Hanako@Example.test' });
    const before = Date.now();
    const res = await call(t, 'POST', path, {
      body: { email: '  HANAKO@example.TEST ', password: TEST_PASSWORD },
      headers: { 'user-agent': 'KadaiTest/1.0' },
    });
    expect(res.status).toBe(200);
    const body = LoginResponse.parse(res.body);
    expect(body.user).toEqual({ pk: user.id, email: 'hanako@example.test' });

    const claims = await verifyAccessToken(t.config.JWT_SECRET, t.config.ACCESS_TOKEN_LIFETIME, body.access);
    expect(claims?.userId).toBe(user.id);
    const [session] = await t.ctx.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, claims!.sessionId));
    expect(session).toMatchObject({ userId: user.id, userAgent: 'KadaiTest/1.0', revokedAt: null });
    expect(session!.ipAddress).toBeTruthy();

    // Only the SHA-256 of the refresh token is stored, never the token.
    const stored = await t.ctx.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.sessionId, session!.id));
    expect(stored.map((r) => r.tokenHash)).toEqual([hashToken(body.refresh)]);
    expect(stored[0]!.expiresAt.getTime()).toBeGreaterThan(before + 13 * 86_400_000);

    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lastLogin!.getTime()).toBeGreaterThanOrEqual(before - 5_000);

    const info = await call(t, 'GET', '/api/Auth/UserInfo/', { token: body.access });
    expect(info.status).toBe(200);
  });

  it('answers every failure with the same 401: wrong password, unknown e-mail, inactive, no password', async () => {
    const user = await createUser(t);
    const inactive = await createUser(t, { isActive: false });
    const noPassword = await createUser(t, { password: null });
    const attempts = [
      { email: user.email, password: 'wrong-password-123' },
      { email: `nobody-${user.id}@example.test`, password: TEST_PASSWORD },
      { email: inactive.email, password: TEST_PASSWORD },
      { email: noPassword.email, password: 'anything-at-all' },
    ];
    for (const body of attempts) {
      const res = await call(t, 'POST', path, { body });
      expect(res.status, body.email).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });

  it('rejects missing fields and wrong types with 400 per field', async () => {
    const missing = await call(t, 'POST', path, { body: { email: 'a@example.test' } });
    expect(missing.status).toBe(400);
    expect(missing.json.password).toBeInstanceOf(Array);

    const empty = await call(t, 'POST', path, { body: {} });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.json)).toEqual(expect.arrayContaining(['email', 'password']));

    const wrongType = await call(t, 'POST', path, { body: { email: 42, password: ['x'] } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.code).toBe('invalid');

    const notObject = await call(t, 'POST', path, { body: '"just a string"' });
    expect(notObject.status).toBe(400);
  });

  it('rejects malformed JSON with 400 and bodies over 2 MB with 413', async () => {
    const malformed = await call(t, 'POST', path, { body: '{"email": "a@example.test", ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe('bad_request');

    const huge = await call(t, 'POST', path, {
      body: { email: 'a@example.test', password: 'x'.repeat(2 * 1024 * 1024 + 10) },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.code).toBe('too_large');
  });

  it('ignores an access token sent along with the sign-in', async () => {
    const user = await createUser(t);
    const first = LoginResponse.parse((await call(t, 'POST', path, { body: user })).body);
    const second = await call(t, 'POST', path, { token: first.access, body: user });
    expect(second.status).toBe(200);
  });
});
