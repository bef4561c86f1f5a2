import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseStudents } from '../../db/schema.ts';
import { identityProviders } from '../../db/schema-identity.ts';
import { createCourse, createUser, tokenFor, type TestUser } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { startOidcProvider, type OidcProvider } from '../../../test/peers/oidc-op.ts';
import { makeKeyPair } from '../../../test/peers/simplesamlphp.ts';
import { declareEnvProviders } from './env-providers.ts';

// Identity providers as data (issue 37): staff CRUD, metadata and discovery read on save, providers
// declared in IDENTITY_PROVIDERS, the sign-in settings, and linked identities.

let t: TestApp;
let staff: TestUser;
let staffToken: string;
let op: OidcProvider;
let cert: string;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

function entity(entityId: string, idp = true): string {
  const descriptor = idp
    ? `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example.ac.jp/sso"/>
</md:IDPSSODescriptor>`
    : `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/>`;
  return `<md:EntityDescriptor xmlns:md="${MD}" entityID="${entityId}">${descriptor}</md:EntityDescriptor>`;
}
const aggregate = (...entities: string[]) =>
  `<md:EntitiesDescriptor xmlns:md="${MD}">${entities.join('')}</md:EntitiesDescriptor>`;

const saml = (slug: string, extra: Record<string, unknown> = {}) => ({
  kind: 'saml',
  slug,
  name_ja: `${slug} 大学`,
  name_en: `${slug} University`,
  metadata_xml: entity(`https://${slug}.example.ac.jp/idp`),
  ...extra,
});
const oidc = (slug: string, extra: Record<string, unknown> = {}) => ({
  kind: 'oidc',
  slug,
  name_ja: `${slug} 大学`,
  name_en: `${slug} University`,
  issuer: op.issuer,
  client_id: 'kadai',
  client_secret: 'a-client-secret',
  ...extra,
});

const create = (body: unknown) => call(t, 'POST', '/api/IdentityProvider/', { token: staffToken, body });
const slugs = async () => (await t.ctx.db.select().from(identityProviders)).map((r) => r.slug);

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true });
  staffToken = await tokenFor(t, staff);
  cert = (await makeKeyPair('idp.example.ac.jp')).cert.replace(/-----[^-]+-----|\s/g, '');
  op = await startOidcProvider({
    client: { client_id: 'kadai', client_secret: 'a-client-secret', redirect_uris: ['http://lms.test/cb'] },
    accounts: {},
  });
}, 60_000);
afterAll(async () => {
  await op.stop();
  await t.close();
});

describe('identity providers (staff)', () => {
  it('adds, lists, reads, changes and removes SAML and OIDC providers', async () => {
    const made = await create(saml('crud-saml', { email_domain: 'Crud.Example.ac.jp' }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.json).toMatchObject({
      kind: 'saml',
      email_domain: 'crud.example.ac.jp',
      enabled: true,
      allow_create: false,
      managed_by: 'app',
      saml: { entity_id: 'https://crud-saml.example.ac.jp/idp', sso_url: 'https://idp.example.ac.jp/sso' },
    });
    expect((made.json.saml as { certificates: unknown[] }).certificates).toHaveLength(1);
    const other = await create(oidc('crud-oidc'));
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect(other.json.oidc).toMatchObject({ issuer: op.issuer, has_client_secret: true });

    const list = await call(t, 'GET', '/api/IdentityProvider/', { token: staffToken });
    const listed = (list.json.results as { slug: string }[]).map((p) => p.slug);
    expect(listed).toEqual(expect.arrayContaining(['crud-saml', 'crud-oidc']));
    const url = `/api/IdentityProvider/${made.json.id}/`;
    expect((await call(t, 'GET', url, { token: staffToken })).json.slug).toBe('crud-saml');
    const changed = await call(t, 'PATCH', url, {
      token: staffToken,
      body: { name_en: 'Renamed', allow_create: true, attribute_map: { email: ['mail'] } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.json).toMatchObject({
      name_en: 'Renamed',
      allow_create: true,
      attribute_map: { email: ['mail'] },
    });
    const wrongKind = await call(t, 'PATCH', url, { token: staffToken, body: { issuer: op.issuer } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.issuer).toBeDefined();
    expect((await call(t, 'DELETE', url, { token: staffToken })).status).toBe(204);
    expect((await call(t, 'GET', url, { token: staffToken })).status).toBe(404);
    expect((await call(t, 'GET', '/api/IdentityProvider/sp/', { token: staffToken })).json).toMatchObject({
      oidc_redirect_uri: 'http://lms.test/api/Auth/Oidc/callback/',
    });
  });

  it('refuses metadata that is not XML, or describes no IdP, or several without entity_id', async () => {
    const broken = await create(saml('bad-xml', { metadata_xml: '<md:EntityDescriptor' }));
    expect(broken.status).toBe(400);
    expect(broken.json.metadata_xml).toBeDefined();
    const spOnly = await create(saml('sp-only', { metadata_xml: entity('https://sp.example', false) }));
    expect(spOnly.status).toBe(400);
    expect(spOnly.json.metadata_xml).toBeDefined();
    const two = aggregate(entity('https://a.example/idp'), entity('https://b.example/idp'));
    expect((await create(saml('two', { metadata_xml: two }))).status).toBe(400);
    const picked = await create(saml('two', { metadata_xml: two, entity_id: 'https://b.example/idp' }));
    expect(picked.status, JSON.stringify(picked.body)).toBe(201);
    expect(picked.json.saml).toMatchObject({ entity_id: 'https://b.example/idp' });
    const missing = await create(saml('two-x', { metadata_xml: two, entity_id: 'https://c.example/idp' }));
    expect(missing.status).toBe(400);
    expect(await slugs()).not.toContain('bad-xml');
  });

  it('answers 502 and creates nothing when the metadata URL or the issuer cannot be reached', async () => {
    const port = await closedPort();
    const noMetadata = await create(
      saml('unreachable', { metadata_xml: undefined, metadata_url: `http://127.0.0.1:${port}/md` }),
    );
    expect(noMetadata.status).toBe(502);
    expect(noMetadata.json.code).toBe('metadata_unreachable');
    const noIssuer = await create(oidc('no-issuer', { issuer: `http://127.0.0.1:${port}` }));
    expect(noIssuer.status).toBe(502);
    expect(noIssuer.json.code).toBe('issuer_unreachable');
    expect(await slugs()).not.toContain('unreachable');
    expect(await slugs()).not.toContain('no-issuer');
  });

  it('refuses a plain-http issuer off loopback, a taken slug, and control characters', async () => {
    const http = await create(oidc('http-issuer', { issuer: 'http://idp.example.ac.jp' }));
    expect(http.status).toBe(400);
    expect(http.json.issuer).toBeDefined();
    expect((await create(saml('taken'))).status).toBe(201);
    const again = await create(saml('taken'));
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('slug_taken');
    expect((await create(saml('ctl', { name_en: 'Bad\u0007Name' }))).status).toBe(400);
    expect((await create(saml('ctl', { name_ja: '大学\u0000' }))).status).toBe(400);
    expect((await create(saml('ctl\u0000x'))).status).toBe(400);
    expect(await slugs()).not.toContain('ctl');
  });
});

describe('changing the metadata', () => {
  it('refuses an entity_id without the metadata to pick it from', async () => {
    const made = await call(t, 'POST', '/api/IdentityProvider/', { token: staffToken, body: saml('picky') });
    const res = await call(t, 'PATCH', `/api/IdentityProvider/${String(made.json.id)}/`, {
      token: staffToken,
      body: { entity_id: 'https://other.example.ac.jp/idp' },
    });
    expect(res.status).toBe(400);
    expect(res.json.entity_id).toBeDefined();
  });
});

describe('providers declared in IDENTITY_PROVIDERS', () => {
  it('are read-only in the app, and disabled once no longer declared', async () => {
    const env = await createTestApp({
      sameDatabaseAs: t,
      env: { IDENTITY_PROVIDERS: JSON.stringify([saml('from-env', { allow_create: true })]) },
    });
    try {
      await declareEnvProviders(env.ctx);
    } finally {
      await env.close();
    }
    const [row] = await t.ctx.db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.slug, 'from-env'));
    expect(row).toMatchObject({ managedBy: 'env', enabled: true, allowCreate: true });
    const url = `/api/IdentityProvider/${row!.id}/`;
    const patch = await call(t, 'PATCH', url, { token: staffToken, body: { name_en: 'Changed' } });
    expect(patch.status).toBe(409);
    expect(patch.json.code).toBe('managed_by_env');
    expect((await call(t, 'DELETE', url, { token: staffToken })).status).toBe(409);

    const gone = await createTestApp({ sameDatabaseAs: t, env: { IDENTITY_PROVIDERS: '[]' } });
    try {
      await declareEnvProviders(gone.ctx);
    } finally {
      await gone.close();
    }
    const [after] = await t.ctx.db.select().from(identityProviders).where(eq(identityProviders.id, row!.id));
    expect(after).toMatchObject({ managedBy: 'env', enabled: false });
  });

  it('do not take over a provider staff made with the same slug', async () => {
    const made = await call(t, 'POST', '/api/IdentityProvider/', {
      token: staffToken,
      body: saml('staff-made'),
    });
    expect(made.status).toBe(201);
    const env = await createTestApp({
      sameDatabaseAs: t,
      env: { IDENTITY_PROVIDERS: JSON.stringify([saml('staff-made', { name_en: 'From env' })]) },
    });
    try {
      await declareEnvProviders(env.ctx);
    } finally {
      await env.close();
    }
    const after = await call(t, 'GET', `/api/IdentityProvider/${String(made.json.id)}/`, {
      token: staffToken,
    });
    expect(after.json).toMatchObject({ managed_by: 'app', name_en: 'staff-made University' });
  });
});

describe('sign-in settings and the public config', () => {
  it('lists only enabled providers and the password-hidden domains', async () => {
    const on = await create(saml('cfg-on'));
    const off = await create(saml('cfg-off', { enabled: false }));
    expect([on.status, off.status]).toEqual([201, 201]);
    const put = await call(t, 'PUT', '/api/SignInSettings/', {
      token: staffToken,
      body: { password_hidden_domains: ['Hidden.example.ac.jp', 'hidden.example.ac.jp'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.json.password_hidden_domains).toEqual(['hidden.example.ac.jp']);
    const read = await call(t, 'GET', '/api/SignInSettings/', { token: staffToken });
    expect(read.json.password_hidden_domains).toEqual(['hidden.example.ac.jp']);
    const config = await call(t, 'GET', '/api/Config/');
    const listed = (config.json.identity_providers as { slug: string }[]).map((p) => p.slug);
    expect(listed).toContain('cfg-on');
    expect(listed).not.toContain('cfg-off');
    expect(config.json.password_hidden_domains).toEqual(['hidden.example.ac.jp']);
  });

  it('turns password sign-in off at those domains, except for staff', async () => {
    await call(t, 'PUT', '/api/SignInSettings/', {
      token: staffToken,
      body: { password_hidden_domains: ['hidden.example.ac.jp'] },
    });
    const student = await createUser(t, { email: 'student@mail.hidden.example.ac.jp' });
    const admin = await createUser(t, { email: 'admin@hidden.example.ac.jp', isStaff: true });
    const login = (email: string, password: string) =>
      call(t, 'POST', '/api/Auth/Token/', { body: { email, password } });
    const refused = await login(student.email, student.password);
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('password_sign_in_disabled');
    const wrong = await login(student.email, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('invalid_credentials');
    expect((await login(admin.email, admin.password)).status).toBe(200);
  });
});

describe('linked identities', () => {
  it('are seen by their user and staff only, linked and unlinked by staff', async () => {
    const provider = await create(saml('links'));
    const providerId = provider.json.id as number;
    const user = await createUser(t);
    const other = await createUser(t);
    const userToken = await tokenFor(t, user);
    const url = `/api/Auth/User/${user.id}/identities/`;
    const linked = await call(t, 'POST', url, {
      token: staffToken,
      body: { provider_id: providerId, external_id: 'u123@links.example' },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.json).toMatchObject({ external_id: 'u123@links.example', provider: { slug: 'links' } });
    const own = await call(t, 'GET', url, { token: userToken });
    expect(own.status).toBe(200);
    expect((own.json.results as unknown[]).length).toBe(1);
    expect((await call(t, 'GET', url, { token: await tokenFor(t, other) })).status).toBe(404);
    expect((await call(t, 'POST', url, { token: userToken, body: {} })).status).toBe(403);

    const taken = await call(t, 'POST', `/api/Auth/User/${other.id}/identities/`, {
      token: staffToken,
      body: { provider_id: providerId, external_id: 'u123@links.example' },
    });
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('identity_taken');
    const noProvider = await call(t, 'POST', url, {
      token: staffToken,
      body: { provider_id: 999_999, external_id: 'x' },
    });
    expect(noProvider.status).toBe(400);

    const unlink = `${url}${linked.json.id}/`;
    expect((await call(t, 'DELETE', unlink, { token: userToken })).status).toBe(403);
    expect((await call(t, 'DELETE', unlink, { token: staffToken })).status).toBe(204);
    expect((await call(t, 'DELETE', unlink, { token: staffToken })).status).toBe(404);
    expect((await call(t, 'GET', url, { token: userToken })).json.results).toEqual([]);
  });

  it('joins the courses waiting for the institutional id a staff link gives', async () => {
    const provider = await create(saml('pending'));
    const course = await createCourse(t);
    const held = await call(t, 'POST', `/api/StudentList/${course.id}/`, {
      token: staffToken,
      body: { institutional_ids: ['S0042'] },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.json.pending).toEqual(['S0042']);
    const user = await createUser(t);
    const res = await call(t, 'POST', `/api/Auth/User/${user.id}/identities/`, {
      token: staffToken,
      body: {
        provider_id: provider.json.id,
        external_id: 's0042@pending.example',
        institutional_id: 'S0042',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const joined = await t.ctx.db
      .select()
      .from(courseStudents)
      .where(and(eq(courseStudents.courseId, course.id), eq(courseStudents.userId, user.id)));
    expect(joined).toHaveLength(1);
  });
});
