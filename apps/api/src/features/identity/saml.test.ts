import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema.ts';
import { userIdentities } from '../../db/schema-identity.ts';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { Browser } from '../../../test/peers/browser.ts';
import {
  makeKeyPair,
  startSimpleSamlIdp,
  type KeyPair,
  type SimpleSamlIdp,
} from '../../../test/peers/simplesamlphp.ts';
import { spKeyPair, spUrls } from './sp.ts';
import { codeOf, errorOf, exchange, postToAcs, startAt } from './sso-testing.ts';

// Kadai as a SAML SP against a real SimpleSAMLphp IdP (issue 37): sign-in, names, replays across
// instances, expiry, audience, tampering, unsigned assertions, certificate rollover, single logout.

const OID = {
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  eppn: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
  sn: 'urn:oid:2.5.4.4',
  givenName: 'urn:oid:2.5.4.42',
  jasn: 'urn:oid:1.3.6.1.4.1.32264.1.1.1',
  jaGivenName: 'urn:oid:1.3.6.1.4.1.32264.1.1.2',
  jaDisplayName: 'urn:oid:1.3.6.1.4.1.32264.1.1.3',
};
const PASSWORD = 'idp-pass-42';
const person = (eppn: string, mail: string, extra: Record<string, string[]> = {}) => ({
  password: PASSWORD,
  attributes: { [OID.eppn]: [eppn], [OID.mail]: [mail], ...extra },
});
const USERS = {
  yamada: person('yamada@u.example.ac.jp', 'yamada@u.example.ac.jp', {
    [OID.sn]: ['Yamada'],
    [OID.givenName]: ['Taro'],
    [OID.jasn]: ['山田'],
    [OID.jaGivenName]: ['太郎'],
  }),
  sato: person('sato@u.example.ac.jp', 'sato@u.example.ac.jp', { [OID.jaDisplayName]: ['佐藤 花子'] }),
  linker: person('linker@u.example.ac.jp', 'linker@u.example.ac.jp'),
  newcomer: person('newcomer@u.example.ac.jp', 'newcomer@u.example.ac.jp'),
  sealed: person('sealed@u.example.ac.jp', 'sealed@u.example.ac.jp'),
  rolling: person('rolling@u.example.ac.jp', 'rolling@u.example.ac.jp'),
};

let t: TestApp;
let staffToken: string;
let keys: { certificate: string };
const idps: SimpleSamlIdp[] = [];

async function idpWith(options: Partial<Parameters<typeof startSimpleSamlIdp>[0]> = {}, sp = spUrls(t.ctx)) {
  const idp = await startSimpleSamlIdp({
    sp: {
      entityId: sp.saml_entity_id,
      acsUrl: sp.saml_acs_url,
      sloUrl: sp.saml_slo_url,
      certificate: keys.certificate,
    },
    users: USERS,
    ...options,
  });
  idps.push(idp);
  return idp;
}

async function addProvider(slug: string, idp: SimpleSamlIdp, extra: Record<string, unknown> = {}) {
  const res = await call(t, 'POST', '/api/IdentityProvider/', {
    token: staffToken,
    body: {
      kind: 'saml',
      slug,
      name_ja: `${slug} 大学`,
      name_en: `${slug} University`,
      metadata_url: idp.metadataUrl,
      allow_create: true,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.json as { id: number };
}

/** Start → IdP login form → the form the IdP would auto-post, not yet posted. */
async function toAcsForm(slug: string, user: string, browser = new Browser(), next?: string) {
  return browser.samlLogin(await startAt(t, slug, next), user, PASSWORD);
}

let idp: SimpleSamlIdp;
beforeAll(async () => {
  t = await createTestApp();
  keys = await spKeyPair(t.ctx);
  const staff = await createUser(t, { isStaff: true });
  staffToken = await tokenFor(t, staff);
  idp = await idpWith();
  await addProvider('uni', idp);
}, 60_000);
afterAll(async () => {
  await Promise.all(idps.map((i) => i.stop()));
  await t.close();
});

describe('SAML sign-in through SimpleSAMLphp', () => {
  it('creates the account on first sign-in with both names, and finds it the second time', async () => {
    const form = await toAcsForm('uni', 'yamada', new Browser(), '/course/7');
    const first = await exchange(t, codeOf(await postToAcs(t, form.fields)));
    expect(first.next).toBe('/course/7');
    expect(first.user.email).toBe('yamada@u.example.ac.jp');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, first.user.pk));
    expect(row).toMatchObject({
      firstName: 'Taro',
      lastName: 'Yamada',
      firstNameJa: '太郎',
      lastNameJa: '山田',
    });
    const info = await call(t, 'GET', '/api/Auth/UserInfo/', { token: first.access });
    expect(info.status).toBe(200);

    const again = await exchange(t, codeOf(await postToAcs(t, (await toAcsForm('uni', 'yamada')).fields)));
    expect(again.user.pk).toBe(first.user.pk);
    const links = await t.ctx.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, first.user.pk));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      externalId: 'yamada@u.example.ac.jp',
      institutionalId: 'yamada@u.example.ac.jp',
    });
  });

  it('splits a Japanese display name family-first', async () => {
    const done = await exchange(t, codeOf(await postToAcs(t, (await toAcsForm('uni', 'sato')).fields)));
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, done.user.pk));
    expect(row).toMatchObject({ lastNameJa: '佐藤', firstNameJa: '花子' });
  });

  it('refuses a replayed response, also at another API instance on the same database', async () => {
    const form = await toAcsForm('uni', 'yamada');
    codeOf(await postToAcs(t, form.fields));
    expect(errorOf(await postToAcs(t, form.fields))).toBe('expired');
    const other = await createTestApp({ sameDatabaseAs: t });
    try {
      expect(errorOf(await postToAcs(other, form.fields))).toBe('expired');
      // Even with a fresh request of its own: the assertion id itself was used.
      const fresh = await startAt(other, 'uni');
      const relay = new URL(fresh).searchParams.get('RelayState')!;
      expect(errorOf(await postToAcs(other, { ...form.fields, RelayState: relay }))).toBe('expired');
    } finally {
      await other.close();
    }
  });

  it('refuses an expired assertion', async () => {
    const form = await toAcsForm('uni', 'yamada');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 20 * 60 * 1000);
      expect(errorOf(await postToAcs(t, form.fields))).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says clock_skew for an assertion from the future', async () => {
    const form = await toAcsForm('uni', 'yamada');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - 20 * 60 * 1000);
      expect(errorOf(await postToAcs(t, form.fields))).toBe('clock_skew');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a tampered assertion and creates nothing', async () => {
    const form = await toAcsForm('uni', 'newcomer');
    const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString('utf8');
    const forged = xml.replaceAll('newcomer@u.example.ac.jp', 'staff@u.example.ac.jp');
    expect(forged).not.toBe(xml);
    const location = await postToAcs(t, {
      ...form.fields,
      SAMLResponse: Buffer.from(forged).toString('base64'),
    });
    expect(errorOf(location)).toBe('invalid');
    const made = await t.ctx.db.select().from(users).where(eq(users.email, 'staff@u.example.ac.jp'));
    expect(made).toHaveLength(0);
  });

  it('refuses a response made for another service provider (audience and recipient)', async () => {
    // The same database behind another name: the assertion names lms.test, not other.test.
    const other = await createTestApp({ sameDatabaseAs: t, env: { PUBLIC_URL: 'http://other.test' } });
    try {
      const form = await toAcsForm('uni', 'newcomer');
      expect(errorOf(await postToAcs(other, form.fields))).toBe('invalid');
    } finally {
      await other.close();
    }
  });

  it('refuses an unsigned assertion in an unsigned response', async () => {
    const unsigned = await idpWith({ signAssertion: false, signResponse: false });
    await addProvider('unsigned', unsigned);
    const form = await toAcsForm('unsigned', 'yamada');
    expect(errorOf(await postToAcs(t, form.fields))).toBe('invalid');
  });

  it('publishes its certificate in its metadata, for signing and for encryption', async () => {
    const res = await call(t, 'GET', '/api/Auth/Saml/metadata/');
    expect(res.status).toBe(200);
    const published = [
      ...String(res.body).matchAll(
        /<KeyDescriptor use="(\w+)">[\s\S]*?<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g,
      ),
    ].map(([, use, cert]) => ({ use, cert: cert!.replace(/\s+/g, '') }));
    const cert = keys.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
    expect(published).toEqual([
      { use: 'signing', cert },
      { use: 'encryption', cert },
    ]);
    // It signs its AuthnRequests, and says so.
    expect(res.body).toContain('AuthnRequestsSigned="true"');
  });

  it('accepts a signed response around an encrypted assertion', async () => {
    const sealed = await idpWith({ encryptAssertion: true, signResponse: true });
    await addProvider('sealed', sealed);
    const form = await toAcsForm('sealed', 'sealed');
    expect(Buffer.from(form.fields.SAMLResponse!, 'base64').toString()).toContain('EncryptedAssertion');
    const done = await exchange(t, codeOf(await postToAcs(t, form.fields)));
    expect(done.user.email).toBe('sealed@u.example.ac.jp');
  });

  it('follows a certificate rollover: both published certificates are trusted', async () => {
    const [oldKey, newKey]: KeyPair[] = [await makeKeyPair('old-idp'), await makeKeyPair('new-idp')];
    const before = await idpWith({ keyPairs: [oldKey!, newKey!] });
    const provider = await addProvider('rolling', before);
    const detail = await call(t, 'GET', `/api/IdentityProvider/${provider.id}/`, { token: staffToken });
    expect((detail.json.saml as { certificates: unknown[] }).certificates).toHaveLength(2);
    codeOf(await postToAcs(t, (await toAcsForm('rolling', 'rolling')).fields));
    // The IdP now signs with the new key; the metadata stored before still lists it.
    const after = await idpWith({ keyPairs: [newKey!, oldKey!], entityId: before.entityId });
    await call(t, 'PATCH', `/api/IdentityProvider/${provider.id}/`, {
      token: staffToken,
      body: { metadata_url: after.metadataUrl },
    });
    codeOf(await postToAcs(t, (await toAcsForm('rolling', 'rolling')).fields));
  });

  it('links an existing e-mail account only with its password', async () => {
    const owner = await createUser(t, { email: 'linker@u.example.ac.jp' });
    const location = await postToAcs(t, (await toAcsForm('uni', 'linker')).fields);
    const code = codeOf(location, 'link');
    const info = await call(t, 'GET', '/api/Auth/Sso/Link/', { query: { code } });
    expect(info.json).toMatchObject({ email: owner.email, provider: { slug: 'uni' }, has_password: true });
    const wrong = await call(t, 'POST', '/api/Auth/Sso/Link/', { body: { code, password: 'not-it' } });
    expect(wrong.status).toBe(401);
    expect(
      await t.ctx.db.select().from(userIdentities).where(eq(userIdentities.userId, owner.id)),
    ).toHaveLength(0);
    const right = await call(t, 'POST', '/api/Auth/Sso/Link/', { body: { code, password: owner.password } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.json.user).toMatchObject({ pk: owner.id });
    const reuse = await call(t, 'POST', '/api/Auth/Sso/Link/', { body: { code, password: owner.password } });
    expect(reuse.status).toBe(410);
    // From now on the identity signs in directly.
    const direct = await exchange(t, codeOf(await postToAcs(t, (await toAcsForm('uni', 'linker')).fields)));
    expect(direct.user.pk).toBe(owner.id);
  });

  it('ends the Kadai session on the IdP’s single logout, and offers SP-initiated logout', async () => {
    const browser = new Browser();
    const done = await exchange(
      t,
      codeOf(await postToAcs(t, (await toAcsForm('uni', 'sato', browser)).fields)),
    );
    const out = await call(t, 'POST', '/api/Auth/Logout/', { token: done.access });
    expect(out.status).toBe(200);
    const url = String(out.json.sso_logout_url);
    expect(url.startsWith(idp.sloUrl)).toBe(true);
    expect(new URL(url).searchParams.get('Signature')).toBeTruthy();

    // IdP-initiated: sign in again, then log out at the IdP; its LogoutRequest reaches our SLO.
    const again = await exchange(
      t,
      codeOf(await postToAcs(t, (await toAcsForm('uni', 'sato', browser)).fields)),
    );
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: again.access })).status).toBe(200);
    const toSp = await browser.follow(idp.initSloUrl('http://127.0.0.1/bye'), {
      stopAt: (next) => next.pathname.endsWith('/api/Auth/Saml/slo/'),
    });
    const slo = new URL(toSp.url);
    expect(slo.searchParams.get('Signature')).toBeTruthy();
    const res = await t.app.inject({ method: 'GET', url: `${slo.pathname}${slo.search}` });
    expect(res.statusCode).toBe(303);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: again.access })).status).toBe(401);
  });

  it('refuses an unsigned LogoutRequest', async () => {
    const done = await exchange(t, codeOf(await postToAcs(t, (await toAcsForm('uni', 'sato')).fields)));
    const xml = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer><saml:NameID>sato</saml:NameID></samlp:LogoutRequest>`;
    const { deflateRawSync } = await import('node:zlib');
    const message = deflateRawSync(Buffer.from(xml)).toString('base64');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/Auth/Saml/slo/?SAMLRequest=${encodeURIComponent(message)}`,
    });
    expect(res.statusCode).toBe(303);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: done.access })).status).toBe(200);
  });
});
