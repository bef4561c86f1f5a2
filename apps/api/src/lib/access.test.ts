import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { authSessions } from '../db/schema.ts';
import { call, createTestApp, eventually, type TestApp } from '../../test/harness.ts';
import { createUser, tokenFor } from '../../test/factories.ts';
import { registerAccessControl } from './access.ts';

describe('access control', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses to start with an /api route that does not declare who may call it', async () => {
    const app = Fastify();
    registerAccessControl(app, t.ctx);
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(/does not declare its access/);
    await app.close();
  });

  it('ignores a stale token on public routes, so it cannot block signing in again', async () => {
    const res = await call(t, 'GET', '/api/Config/', { token: 'not-a-jwt' });
    expect(res.status).toBe(200);
  });

  it('answers 401 for a garbage token, a malformed header and a revoked session', async () => {
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: 'not-a-jwt' })).json.code).toBe(
      'token_not_valid',
    );
    const malformed = await call(t, 'GET', '/api/Auth/UserInfo/', {
      headers: { authorization: 'Token abc' },
    });
    expect(malformed.status).toBe(401);
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token })).status).toBe(200);
    // Revoked behind the API's back (logout through the API: sessions.test.ts): the trigger's
    // notification makes this process forget the session moments after the change commits.
    await t.ctx.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(eq(authSessions.userId, user.id));
    await eventually(async () => (await call(t, 'GET', '/api/Auth/UserInfo/', { token })).status === 401);
  });

  it('answers 401 for a token signed with another secret', async () => {
    const other = await createTestApp({
      env: { JWT_SECRET: 'another-secret-another-secret-another-secret-0' },
    });
    try {
      const user = await createUser(other);
      const foreign = await tokenFor(other, user);
      expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: foreign })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
