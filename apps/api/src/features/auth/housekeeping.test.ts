import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';
import { authSessions, loginThrottle, refreshTokens } from '../../db/schema.ts';
import { AUTH_HOUSEKEEPING_QUEUE, pruneAuthRows, startAuthHousekeeping } from './housekeeping.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

describe('auth housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
  });
  afterAll(() => t.close());

  it('deletes expired refresh tokens, long-dead sessions and closed throttle windows, and nothing alive', async () => {
    const user = await createUser(t);
    const login = await call(t, 'POST', '/api/Auth/Token/', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    const { db } = t.ctx;
    const [dead] = await db
      .insert(authSessions)
      .values({ userId: user.id, createdAt: daysAgo(120), revokedAt: daysAgo(100), revokedReason: 'logout' })
      .returning();
    const [recentlyDead] = await db
      .insert(authSessions)
      .values({ userId: user.id, createdAt: daysAgo(20) })
      .returning();
    await db.insert(refreshTokens).values([
      { sessionId: dead!.id, tokenHash: 'old-1', createdAt: daysAgo(120), expiresAt: daysAgo(106) },
      { sessionId: recentlyDead!.id, tokenHash: 'old-2', createdAt: daysAgo(20), expiresAt: daysAgo(6) },
    ]);
    await db.insert(loginThrottle).values([
      { key: 'account:gone@example.test', failures: 3, windowStartedAt: daysAgo(1) },
      { key: 'account:current@example.test', failures: 2 },
    ]);

    const pruned = await pruneAuthRows(t.ctx);
    expect(pruned).toEqual({ refreshTokens: 2, sessions: 1, throttleRows: 1 });

    const sessions = await db
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(eq(authSessions.userId, user.id));
    expect(sessions.map((s) => s.id)).not.toContain(dead!.id);
    expect(sessions).toHaveLength(2); // the live sign-in, and the recently dead one kept for audits
    const keys = (await db.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key);
    expect(keys).toContain('account:current@example.test');
    expect(keys).not.toContain('account:gone@example.test');

    // The live session still refreshes.
    const refreshed = await call(t, 'POST', '/api/Auth/Token/Refresh/', {
      body: { refresh: login.json.refresh },
    });
    expect(refreshed.status).toBe(200);
  });

  it('is scheduled hourly through the job queue', async () => {
    await startAuthHousekeeping(t.ctx);
    const rows = await t.ctx.database.query(`SELECT name, cron FROM pgboss.schedule WHERE name = $1`, [
      AUTH_HOUSEKEEPING_QUEUE,
    ]);
    expect(JSON.stringify(rows.rows)).toContain('23 * * * *');
  });
});
