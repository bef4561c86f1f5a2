import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { identityProviders, userIdentities } from '../../db/schema-identity.ts';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { Browser } from '../../../test/peers/browser.ts';
import { startOidcProvider, type OidcAccount, type OidcProvider } from '../../../test/peers/oidc-op.ts';
import { unseal } from '../../lib/secrets.ts';
import { spUrls } from './sp.ts';
import { codeOf, errorOf, exchange, startAt } from './sso-testing.ts';

// Kadai as an OpenID Connect relying party against a real oidc-provider OP (issue 37): accounts made
// and found by `sub`, names in two languages, `next`, and each refusal the OP can be made to cause.

const PASSWORD = 'op-pass-42';
const SECRET = 'client-secret-that-must-stay-inside-0123456789';
const account = (sub: string, claims: Record<string, unknown>): OidcAccount => ({
  sub,
  password: PASSWORD,
  claims: { email_verified: true, ...claims },
});
const ACCOUNTS: Record<string, OidcAccount> = {
  tanaka: account('sub-tanaka', {
    email: 'tanaka@op.example.ac.jp',
    given_name: 'Ichiro',
    family_name: 'Tanaka',
    'name#ja-Jpan-JP': '田中 一郎',
    preferred_username: 's1234567',
  }),
  mori: account('sub-mori', { email: 'mori@op.example.ac.jp', name: 'Ken Mori' }),
  // The same address under a new `sub` (a reissued account, or someone else given the address).
  moriAgain: account('sub-mori-2', { email: 'mori@op.example.ac.jp', name: 'Ken Mori' }),
  stranger: account('sub-stranger', { email: 'stranger@op.example.ac.jp', name: 'Nobody Known' }),
  plain: account('sub-plain', { email: 'plain@op.example.ac.jp', name: 'Plain Person' }),
};

let t: TestApp;
let op: OidcProvider;
let staffToken: string;
const ops: OidcProvider[] = [];

async function startOp(): Promise<OidcProvider> {
  const started = await startOidcProvider({
    client: {
      client_id: 'kadai',
      client_secret: SECRET,
      redirect_uris: [spUrls(t.ctx).oidc_redirect_uri],
    },
    accounts: ACCOUNTS,
  });
  ops.push(started);
  return started;
}

async function addProvider(slug: string, issuer: string, extra: Record<string, unknown> = {}) {
  const res = await call(t, 'POST', '/api/IdentityProvider/', {
    token: staffToken,
    body: {
      kind: 'oidc',
      slug,
      name_ja: `${slug} 大学`,
      name_en: `${slug} University`,
      issuer,
      client_id: 'kadai',
      client_secret: SECRET,
      allow_create: true,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.json as { id: number };
}

/** Start → OP login → the callback URL the OP sends the browser to, requested through inject. */
async function callbackUrl(slug: string, login: string, next?: string): Promise<string> {
  const url = await new Browser().oidcLogin(await startAt(t, slug, next), login, PASSWORD, {
    redirectUri: spUrls(t.ctx).oidc_redirect_uri,
  });
  return url;
}

async function land(callback: string): Promise<string> {
  const url = new URL(callback);
  const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(res.statusCode, res.body).toBe(303);
  return String(res.headers.location);
}

const signIn = async (slug: string, login: string, next?: string) =>
  land(await callbackUrl(slug, login, next));

beforeAll(async () => {
  t = await createTestApp();
  const staff = await createUser(t, { isStaff: true });
  staffToken = await tokenFor(t, staff);
  op = await startOp();
  await addProvider('op', op.issuer);
}, 60_000);
afterAll(async () => {
  await Promise.all(ops.map((o) => o.stop()));
  await t.close();
});

describe('OpenID Connect sign-in through oidc-provider', () => {
  it('creates the account with both names, keeps next, and finds it by sub the second time', async () => {
    const first = await exchange(t, codeOf(await signIn('op', 'tanaka', '/course/3')));
    expect(first.next).toBe('/course/3');
    expect(first.user.email).toBe('tanaka@op.example.ac.jp');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, first.user.pk));
    expect(row).toMatchObject({
      firstName: 'Ichiro',
      lastName: 'Tanaka',
      firstNameJa: '一郎',
      lastNameJa: '田中',
    });
    expect(row?.emailVerifiedAt).not.toBeNull();

    const again = await exchange(t, codeOf(await signIn('op', 'tanaka')));
    expect(again.user.pk).toBe(first.user.pk);
    expect(again.next).toBeNull();
    const links = await t.ctx.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, first.user.pk));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ externalId: 'sub-tanaka', institutionalId: 's1234567' });
  });

  it('refuses an ID token with another nonce', async () => {
    op.misbehave({ forceNonce: 'not-the-one-we-sent' });
    try {
      expect(errorOf(await signIn('op', 'tanaka'))).toBe('invalid');
    } finally {
      op.misbehave({});
    }
  });

  it('refuses an ID token from another issuer', async () => {
    op.misbehave({ issuerOverride: 'https://evil.example' });
    try {
      expect(errorOf(await signIn('op', 'tanaka'))).toBe('invalid');
    } finally {
      op.misbehave({});
    }
  });

  it('says expired for an expired ID token', async () => {
    op.misbehave({ expiredIdToken: true });
    try {
      expect(errorOf(await signIn('op', 'tanaka'))).toBe('expired');
    } finally {
      op.misbehave({});
    }
  });

  it('does not let a new sub with the same e-mail take over the account', async () => {
    const owner = await exchange(t, codeOf(await signIn('op', 'mori')));
    expect(errorOf(await signIn('op', 'moriAgain'))).toBe('account_mismatch');
    const links = await t.ctx.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, owner.user.pk));
    expect(links.map((l) => l.externalId)).toEqual(['sub-mori']);
    // The first sub still signs in.
    expect((await exchange(t, codeOf(await signIn('op', 'mori')))).user.pk).toBe(owner.user.pk);
  });

  it('answers expired when the callback (its state) comes a second time', async () => {
    const callback = await callbackUrl('op', 'tanaka');
    codeOf(await land(callback));
    expect(errorOf(await land(callback))).toBe('expired');
  });

  it('says no_account and creates nobody when the provider may not create accounts', async () => {
    await addProvider('op-closed', op.issuer, { allow_create: false });
    expect(errorOf(await signIn('op-closed', 'stranger'))).toBe('no_account');
    const made = await t.ctx.db.select().from(users).where(eq(users.email, 'stranger@op.example.ac.jp'));
    expect(made).toHaveLength(0);
  });

  it('says disabled for a disabled provider, at start and at the callback', async () => {
    const provider = await addProvider('op-off', op.issuer);
    const callback = await callbackUrl('op-off', 'plain');
    const off = await call(t, 'PATCH', `/api/IdentityProvider/${provider.id}/`, {
      token: staffToken,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect(errorOf(await land(callback))).toBe('disabled');
    const start = await call(t, 'GET', '/api/Auth/Sso/op-off/start/');
    expect(start.status).toBe(303);
    expect(errorOf(String(start.headers.location))).toBe('disabled');
  });

  it('says unavailable when the issuer cannot be reached at sign-in', async () => {
    const gone = await startOp();
    await addProvider('op-gone', gone.issuer);
    await gone.stop();
    const start = await call(t, 'GET', '/api/Auth/Sso/op-gone/start/');
    expect(start.status).toBe(303);
    expect(errorOf(String(start.headers.location))).toBe('unavailable');
  });

  it('never answers the client secret, and keeps it sealed', async () => {
    const list = await call(t, 'GET', '/api/IdentityProvider/', { token: staffToken });
    expect(list.status).toBe(200);
    const [row] = await t.ctx.db.select().from(identityProviders).where(eq(identityProviders.slug, 'op'));
    const detail = await call(t, 'GET', `/api/IdentityProvider/${row!.id}/`, { token: staffToken });
    expect(detail.status).toBe(200);
    expect(detail.json.oidc).toMatchObject({ has_client_secret: true, client_id: 'kadai' });
    const config = await call(t, 'GET', '/api/Config/');
    const patched = await call(t, 'PATCH', `/api/IdentityProvider/${row!.id}/`, {
      token: staffToken,
      body: { name_en: 'Op University' },
    });
    for (const res of [list, detail, config, patched]) expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(row!.secretEnc).toBeTruthy();
    expect(row!.secretEnc).not.toContain(SECRET);
    expect(unseal(t.config.JWT_SECRET, row!.secretEnc!)).toBe(SECRET);
  });
});
