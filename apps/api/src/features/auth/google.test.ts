import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LoginResponse } from '@kadai/contracts';
import { users } from '../../db/schema.ts';
import { socialAccounts } from '../../db/schema-mail.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';
import {
  FAKE_GOOGLE_CLIENT_ID,
  fakeGoogleToken,
  startFakeGoogle,
  type FakeGoogle,
  type FakeGoogleIdentity,
} from '../../../test/fake-google.ts';
import { fetchGoogleIdentity, GoogleError } from './google.client.ts';
import { verifyAccessToken } from './tokens.ts';

const PATH = '/api/Auth/SocialLogin/Google/';
let seq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;

function googleEnv(fake: FakeGoogle, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
    GOOGLE_USERINFO_URL: fake.userinfoUrl,
    GOOGLE_TOKENINFO_URL: fake.tokeninfoUrl,
    ...extra,
  };
}

const signInAs = (t: TestApp, identity: FakeGoogleIdentity, headers: Record<string, string> = {}) =>
  call(t, 'POST', PATH, { body: { access_token: fakeGoogleToken(identity) }, headers });

async function linksOf(t: TestApp, userId: number) {
  return t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
}

async function userRow(t: TestApp, id: number) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
  return row!;
}

let fake: FakeGoogle;
beforeAll(async () => {
  fake = await startFakeGoogle();
});
afterAll(() => fake.close());

describe('POST /api/Auth/SocialLogin/Google/ (self-registration off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: googleEnv(fake) });
  });
  afterAll(() => t.close());

  it('links an existing account by its verified e-mail, then signs in by subject id', async () => {
    const user = await createUser(t, { email: `${unique('hanako')}@example.test` });
    const sub = unique('sub');
    const before = Date.now();
    const res = await signInAs(t, { sub, email: user.email, email_verified: true }, { 'user-agent': 'G/1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = LoginResponse.parse(res.body);
    expect(body.user).toEqual({ pk: user.id, email: user.email });
    expect(
      (await verifyAccessToken(t.config.JWT_SECRET, t.config.ACCESS_TOKEN_LIFETIME, body.access))?.userId,
    ).toBe(user.id);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: body.access })).status).toBe(200);
    const refreshed = await call(t, 'POST', '/api/Auth/Token/Refresh/', { body: { refresh: body.refresh } });
    expect(refreshed.status).toBe(200);

    const [link] = await linksOf(t, user.id);
    expect(link).toMatchObject({ provider: 'google', subject: sub, email: user.email });
    expect(link!.lastLoginAt!.getTime()).toBeGreaterThanOrEqual(before - 5000);
    const row = await userRow(t, user.id);
    expect(row.emailVerifiedAt).not.toBeNull();
    expect(row.lastLogin!.getTime()).toBeGreaterThanOrEqual(before - 5000);

    // Later Google reports another address: the subject id still names the same account.
    const again = await signInAs(t, {
      sub,
      email: `${unique('renamed')}@example.test`,
      email_verified: true,
    });
    expect(again.status).toBe(200);
    expect(LoginResponse.parse(again.body).user.pk).toBe(user.id);
    expect(await linksOf(t, user.id)).toHaveLength(1);
  });

  it('never links by an unverified e-mail, nor signs in with one', async () => {
    const user = await createUser(t);
    const res = await signInAs(t, { sub: unique('sub'), email: user.email, email_verified: false });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('email_not_verified');
    expect(String(res.json.detail)).toMatch(/not verified/);
    expect(await linksOf(t, user.id)).toHaveLength(0);
    expect((await userRow(t, user.id)).emailVerifiedAt).toBeNull();

    const noEmail = await signInAs(t, { sub: unique('sub') });
    expect(noEmail.status).toBe(401);
    expect(noEmail.json.code).toBe('email_not_verified');
  });

  it('answers 401 to a token Google rejects and to one issued to another application', async () => {
    const user = await createUser(t);
    const madeUp = await call(t, 'POST', PATH, { body: { access_token: 'ya29.not-a-real-token' } });
    expect(madeUp.status).toBe(401);
    expect(madeUp.json.code).toBe('google_token_invalid');

    const foreign = await signInAs(t, {
      sub: unique('sub'),
      email: user.email,
      email_verified: true,
      aud: 'someone-else.apps.googleusercontent.com',
    });
    expect(foreign.status).toBe(401);
    expect(foreign.json.code).toBe('google_token_invalid');
    expect(await linksOf(t, user.id)).toHaveLength(0);
  });

  it('creates no account without self-registration', async () => {
    const email = `${unique('stranger')}@example.test`;
    const res = await signInAs(t, { sub: unique('sub'), email, email_verified: true });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'no_account', detail: expect.stringContaining('instructor') });
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(0);
  });

  it('refuses a deactivated account, and a second Google account claiming a linked one', async () => {
    const gone = await createUser(t, { isActive: false });
    const res = await signInAs(t, { sub: unique('sub'), email: gone.email, email_verified: true });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('account_inactive');

    const user = await createUser(t);
    expect(
      (await signInAs(t, { sub: unique('first'), email: user.email, email_verified: true })).status,
    ).toBe(200);
    const second = await signInAs(t, { sub: unique('second'), email: user.email, email_verified: true });
    expect(second.status).toBe(401);
    expect(second.json.code).toBe('google_account_mismatch');
    expect(await linksOf(t, user.id)).toHaveLength(1);
  });

  it('rejects a missing, empty or mistyped access_token with 400 per field', async () => {
    for (const body of [
      {},
      { access_token: '' },
      { access_token: 42 },
      { access_token: ['x'] },
      { token: 'x' },
    ]) {
      const res = await call(t, 'POST', PATH, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.access_token, JSON.stringify(body)).toBeInstanceOf(Array);
    }
    expect((await call(t, 'POST', PATH, { body: '"a string"' })).status).toBe(400);
    expect((await call(t, 'POST', PATH, { body: { access_token: 'x'.repeat(5000) } })).status).toBe(400);
  });

  it('answers 502 when Google fails, times out or answers nonsense: not the user’s fault', async () => {
    const user = await createUser(t);
    const identity = { sub: unique('sub'), email: user.email, email_verified: true };
    for (const failure of [
      { status: 503 },
      { status: 200, body: 'not json' },
      { status: 200, body: JSON.stringify({ hello: 'world' }) },
      { status: 200, body: JSON.stringify({ aud: 'x'.repeat(70_000) }) },
    ]) {
      fake.failNext(failure);
      const res = await signInAs(t, identity);
      expect(res.status, JSON.stringify(failure).slice(0, 80)).toBe(502);
      expect(res.json.code).toBe('google_unavailable');
    }
    expect(await linksOf(t, user.id)).toHaveLength(0);
    expect((await signInAs(t, identity)).status).toBe(200);
  });
});

describe('Google sign-in with self-registration and allowed domains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: googleEnv(fake, {
        SELF_REGISTRATION: 'true',
        ALLOWED_EMAIL_DOMAINS: 'u-example.ac.jp, Example.edu',
      }),
    });
  });
  afterAll(() => t.close());

  it('creates an active, verified account with Google’s names', async () => {
    const email = `${unique('Taro')}@U-Example.ac.jp`;
    const res = await signInAs(t, {
      sub: unique('sub'),
      email,
      email_verified: true,
      given_name: 'Taro',
      family_name: 'Yamada',
      hd: 'u-example.ac.jp',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = LoginResponse.parse(res.body);
    expect(body.user.email).toBe(email.toLowerCase());
    const row = await userRow(t, body.user.pk);
    expect(row).toMatchObject({ firstName: 'Taro', lastName: 'Yamada', isActive: true, isStaff: false });
    expect(row.roles).toEqual(['no_role']);
    expect(row.passwordHash).toBeNull();
    expect(row.emailVerifiedAt).not.toBeNull();
    expect(await linksOf(t, row.id)).toHaveLength(1);
  });

  it('admits subdomains of an allowed domain and refuses other domains, even for existing accounts', async () => {
    const sub = await signInAs(t, {
      sub: unique('sub'),
      email: `${unique('s')}@mail.example.edu`,
      email_verified: true,
    });
    expect(sub.status).toBe(200);

    const outsider = await createUser(t, { email: `${unique('out')}@gmail.test` });
    const res = await signInAs(t, { sub: unique('sub'), email: outsider.email, email_verified: true });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('email_domain_not_allowed');
    expect(String(res.json.detail)).toContain('gmail.test');
    // A look-alike domain is not a subdomain.
    const lookalike = await signInAs(t, {
      sub: unique('sub'),
      email: `${unique('x')}@evilexample.edu`,
      email_verified: true,
    });
    expect(lookalike.json.code).toBe('email_domain_not_allowed');
  });

  it('still refuses an unverified e-mail when self-registration is on', async () => {
    const email = `${unique('unverified')}@u-example.ac.jp`;
    const res = await signInAs(t, { sub: unique('sub'), email, email_verified: false });
    expect(res.status).toBe(401);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});

describe('Google sign-in: configuration, reachability and throttling', () => {
  it('answers 404 when no Google client id is configured', async () => {
    const t = await createTestApp();
    try {
      const res = await call(t, 'POST', PATH, { body: { access_token: 'some-token' } });
      expect(res.status).toBe(404);
      const config = await call(t, 'GET', '/api/Config/');
      expect(config.json).toMatchObject({ google_client_id: null });
      // The app's pages carry the policy (the API's answers carry one that allows nothing).
      const page = await call(t, 'GET', '/login');
      expect(String(page.headers['content-security-policy'])).not.toContain('gsi');
    } finally {
      await t.close();
    }
  });

  it('answers 502 when Google cannot be reached, and counts failures per address (429 after the limit)', async () => {
    const t = await createTestApp({
      env: {
        ...googleEnv(fake, { GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/v1/userinfo' }),
        LOGIN_MAX_FAILURES_PER_ADDRESS: '3',
        GOOGLE_SCRIPT_URL: `${fake.url}/gsi/client`,
      },
    });
    try {
      const identity = { sub: unique('sub'), email: `${unique('a')}@example.test`, email_verified: true };
      // Unreachable Google gives the attempt back: many 502s never reach the limit.
      for (let i = 0; i < 4; i++) expect((await signInAs(t, identity)).status).toBe(502);
      for (let i = 0; i < 3; i++) {
        expect((await call(t, 'POST', PATH, { body: { access_token: 'bad' } })).status).toBe(401);
      }
      const throttled = await call(t, 'POST', PATH, { body: { access_token: 'bad' } });
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

      // The page may load the identity script and open its frames; the window keeps its pop-up.
      const config = await call(t, 'GET', '/api/Config/');
      expect(config.json).toMatchObject({
        google_client_id: FAKE_GOOGLE_CLIENT_ID,
        google_script_url: `${fake.url}/gsi/client`,
      });
      const page = await call(t, 'GET', '/login');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' ${fake.url}/gsi/client`);
      expect(csp).toContain(`frame-src`);
      expect(csp).toMatch(new RegExp(`connect-src 'self' ${fake.url}/gsi/`));
      expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    } finally {
      await t.close();
    }
  });

  it('gives up on a Google that does not answer in time', async () => {
    fake.failNext({ status: 200, delayMs: 1000 });
    const started = Date.now();
    const error = await fetchGoogleIdentity(
      {
        clientId: FAKE_GOOGLE_CLIENT_ID,
        userinfoUrl: fake.userinfoUrl,
        tokeninfoUrl: fake.tokeninfoUrl,
        timeoutMs: 200,
      },
      fakeGoogleToken({ sub: 'slow' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleError);
    expect(error).toMatchObject({ failure: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(900);
  });
});
