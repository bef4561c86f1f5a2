import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle } from '../../db/schema.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';

const login = (t: TestApp, email: string, password: string, address?: string) =>
  call(t, 'POST', '/api/Auth/Token/', {
    body: { email, password },
    headers: address ? { 'x-forwarded-for': address } : {},
  });

describe('sign-in throttling per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Every request here comes from one address; keep its own limit out of the way.
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After after 5 failures, even with the right password', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 5; i++) expect((await login(t, user.email, 'wrong-guess-1')).status).toBe(401);
    const blocked = await login(t, user.email, TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe('throttled');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it('keys on the lower-cased e-mail', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 5; i++)
      await login(t, i % 2 ? user.email.toUpperCase() : user.email, 'wrong-guess-1');
    expect((await login(t, ` ${user.email.toUpperCase()} `, TEST_PASSWORD)).status).toBe(429);
  });

  it('answers an unknown e-mail exactly as a known one, so throttling cannot probe accounts', async () => {
    const user = await createUser(t);
    const unknown = `ghost-${user.id}@example.test`;
    const seen: { status: number; body: unknown }[][] = [[], []];
    for (let i = 0; i < 6; i++) {
      for (const [n, email] of [user.email, unknown].entries()) {
        const res = await login(t, email, 'wrong-guess-1');
        seen[n]!.push({ status: res.status, body: res.body });
      }
    }
    expect(seen[0]!.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(seen[1]).toEqual(seen[0]);
  });

  it('starts the account afresh after a successful sign-in', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 4; i++) await login(t, user.email, 'wrong-guess-1');
    expect((await login(t, user.email, TEST_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(t, user.email, 'wrong-guess-1')).status).toBe(401);
    expect((await login(t, user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('lets the account in again once the window has passed', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 5; i++) await login(t, user.email, 'wrong-guess-1');
    expect((await login(t, user.email, TEST_PASSWORD)).status).toBe(429);
    // Move the window into the past rather than wait 15 minutes.
    await t.ctx.db.update(loginThrottle).set({ windowStartedAt: new Date(Date.now() - 901_000) });
    expect((await login(t, user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not let a burst of parallel guesses past the limit', async () => {
    const user = await createUser(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => login(t, user.email, 'wrong-guess-1')),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});

describe('sign-in throttling per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '3', TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('blocks an address after its failures across many accounts, and only that address', async () => {
    const victim = await createUser(t);
    for (let i = 0; i < 3; i++) {
      expect((await login(t, `guess-${i}@example.test`, 'wrong-guess-1', '203.0.113.7')).status).toBe(401);
    }
    const blocked = await login(t, victim.email, TEST_PASSWORD, '203.0.113.7');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected, and the victim's account was not charged for the blocked try.
    expect((await login(t, victim.email, TEST_PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  it('takes the address the proxy saw, so a client cannot escape by writing its own X-Forwarded-For', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) {
      const invented = `10.9.8.${i}, 203.0.113.99`;
      expect((await login(t, `spoof-${i}@example.test`, 'wrong-guess-1', invented)).status).toBe(401);
    }
    expect((await login(t, user.email, TEST_PASSWORD, '10.0.0.1, 203.0.113.99')).status).toBe(429);
  });

  it('counts only failures: successful sign-ins from a shared address do not use it up', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 6; i++) {
      expect((await login(t, user.email, TEST_PASSWORD, '192.0.2.44')).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) await login(t, user.email, 'wrong-guess-1', '192.0.2.44');
    expect((await login(t, user.email, TEST_PASSWORD, '192.0.2.44')).status).toBe(429);
  });
});
