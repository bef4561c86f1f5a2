import { expect } from 'vitest';
import { createCourseWorld, createUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import {
  browserRequest,
  describeMatrix,
  type Answer,
  type Cell,
  type MatrixRow,
} from '../../../test/matrix.ts';
import { makeKeyPair } from '../../../test/peers/simplesamlphp.ts';
import { resolvePerson } from './accounts.service.ts';
import { insertIdentity } from './identities.repo.ts';
import type { Person } from './person.ts';
import { insertProviderRow, type ProviderRow } from './providers.repo.ts';
import { parseIdpMetadata } from './saml-metadata.ts';

/**
 * Identity providers, sign-in settings, linked identities and the sign-in round trip × every kind of
 * caller → the exact status. The browser's routes are public: a token in the header changes nothing,
 * and junk (an unknown RelayState, state or code) lands on the login page with a reason, never a 5xx.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
let certificate: Promise<string> | undefined;
let made = 0;
const unique = () => `${Date.now().toString(36)}${(made++).toString(36)}`;

async function metadataXml(entityId: string): Promise<string> {
  certificate ??= makeKeyPair('matrix-idp').then((k) => k.cert.replace(/-----[^-]+-----|\s/g, ''));
  return `<md:EntityDescriptor xmlns:md="${MD}" entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${await certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example.ac.jp/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}

const person = (externalId: string, email: string): Person => ({
  externalId,
  email,
  firstName: 'Matrix',
  lastName: 'Person',
  firstNameJa: '',
  lastNameJa: '',
  institutionalId: null,
});

async function world(t: TestApp) {
  const base = await createCourseWorld(t);
  const slug = `m-${unique()}`;
  const meta = parseIdpMetadata(await metadataXml(`https://${slug}.example/idp`));
  const provider = (await insertProviderRow(t.ctx.db, {
    slug,
    kind: 'saml',
    nameJa: 'マトリクス大学',
    nameEn: 'Matrix University',
    allowCreate: true,
    settings: { ...meta, metadataUrl: null, idSource: 'attribute', attributeMap: {} },
    secretEnc: null,
  })) as ProviderRow;
  const identity = await insertIdentity(t.ctx.db, {
    providerId: provider.id,
    externalId: `student-${slug}`,
    userId: base.users.student.id,
  });
  return { ...base, provider, identity };
}
type World = Awaited<ReturnType<typeof world>>;
type Route = MatrixRow<World, Caller>;

const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  student: status,
  editor: status,
  otherEditor: status,
  staff: status,
});
const staffOnly = (status: number): Record<Caller, number> => ({
  ...everyone(403),
  anonymous: 401,
  staff: status,
});
/** The student's own identities: the student and staff; others are told they do not exist. */
const studentOrStaff = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  student: status,
  editor: 404,
  otherEditor: 404,
  staff: status,
});

/** A 303 back to the login page with this reason. */
const landsOn =
  (reason: string) =>
  ({ body }: Answer, _cell: Cell<World, Caller>) =>
    expect((body as { location?: string }).location).toBe(`/login?sso_error=${reason}`);

/** A code as a finished sign-in hands the web app: `sign_in` for a new account, `link` for one of `email`. */
async function codeFor(c: Cell<World, Caller>, email?: string): Promise<string> {
  const address = email ?? `new-${unique()}@matrix.example`;
  const outcome = await resolvePerson(
    c.t.ctx,
    c.world.provider,
    person(`x-${unique()}`, address),
    null,
    null,
  );
  return outcome.code;
}

const PROVIDER = '/api/IdentityProvider/{id}/';
const IDENTITIES = '/api/Auth/User/{id}/identities/';
const providerUrl = (w: World) => `/api/IdentityProvider/${w.provider.id}/`;
const identitiesUrl = (w: World) => `/api/Auth/User/${w.users.student.id}/identities/`;

const ROUTES: Route[] = [
  {
    method: 'GET',
    route: '/api/IdentityProvider/',
    url: () => '/api/IdentityProvider/',
    expected: staffOnly(200),
  },
  {
    method: 'POST',
    route: '/api/IdentityProvider/',
    url: () => '/api/IdentityProvider/',
    body: async () => ({
      kind: 'saml',
      slug: `n-${unique()}`,
      name_ja: '新大学',
      name_en: 'New University',
      metadata_xml: await metadataXml(`https://${unique()}.example/idp`),
    }),
    expected: staffOnly(201),
  },
  {
    method: 'GET',
    route: '/api/IdentityProvider/sp/',
    url: () => '/api/IdentityProvider/sp/',
    expected: staffOnly(200),
  },
  { method: 'GET', route: PROVIDER, url: providerUrl, expected: staffOnly(200) },
  {
    method: 'PATCH',
    route: PROVIDER,
    url: providerUrl,
    body: () => ({ name_en: 'Renamed University' }),
    expected: staffOnly(200),
  },
  { method: 'DELETE', route: PROVIDER, url: providerUrl, expected: staffOnly(204) },
  {
    method: 'GET',
    route: '/api/SignInSettings/',
    url: () => '/api/SignInSettings/',
    expected: staffOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/SignInSettings/',
    url: () => '/api/SignInSettings/',
    // No domain: a password-hidden one would change the other matrices' sign-ins.
    body: () => ({ password_hidden_domains: [] }),
    expected: staffOnly(200),
  },
  { method: 'GET', route: IDENTITIES, url: identitiesUrl, expected: studentOrStaff(200) },
  {
    method: 'POST',
    route: IDENTITIES,
    url: identitiesUrl,
    body: (w) => ({ provider_id: w.provider.id, external_id: `linked-${unique()}` }),
    expected: staffOnly(201),
  },
  {
    method: 'DELETE',
    route: '/api/Auth/User/{id}/identities/{identity_id}/',
    url: (w) => `${identitiesUrl(w)}${w.identity.id}/`,
    expected: staffOnly(204),
  },
  {
    method: 'GET',
    route: '/api/Auth/Sso/{slug}/start/',
    send: (w, token, c) =>
      browserRequest(c.t, token, 'GET', `/api/Auth/Sso/${w.provider.slug}/start/?next=/course/1`),
    expected: everyone(303),
    check: ({ body }) =>
      expect((body as { location: string }).location).toMatch(/^https:\/\/idp\.example\.ac\.jp\/sso\?/),
  },
  {
    method: 'GET',
    route: '/api/Auth/Sso/{slug}/start/',
    case: 'no such provider',
    url: () => '/api/Auth/Sso/no-such-provider/start/',
    expected: everyone(404),
  },
  {
    method: 'POST',
    route: '/api/Auth/Saml/acs/',
    case: 'junk SAMLResponse and RelayState',
    send: (_, token, c) =>
      browserRequest(c.t, token, 'POST', '/api/Auth/Saml/acs/', {
        SAMLResponse: 'PGp1bmsvPg==',
        RelayState: 'junk',
      }),
    expected: everyone(303),
    check: landsOn('expired'),
  },
  {
    method: 'GET',
    route: '/api/Auth/Oidc/callback/',
    case: 'junk code and state',
    send: (_, token, c) => browserRequest(c.t, token, 'GET', '/api/Auth/Oidc/callback/?code=junk&state=junk'),
    expected: everyone(303),
    check: landsOn('expired'),
  },
  {
    method: 'GET',
    route: '/api/Auth/Saml/metadata/',
    send: (_, token, c) => browserRequest(c.t, token, 'GET', '/api/Auth/Saml/metadata/'),
    expected: everyone(200),
    check: ({ body }) => expect((body as { text: string }).text).toContain('EntityDescriptor'),
  },
  {
    method: 'GET',
    route: '/api/Auth/Saml/slo/',
    case: 'junk SAMLRequest',
    send: (_, token, c) =>
      browserRequest(c.t, token, 'GET', '/api/Auth/Saml/slo/?SAMLRequest=junk&RelayState=junk'),
    expected: everyone(303),
  },
  {
    method: 'POST',
    route: '/api/Auth/Saml/slo/',
    case: 'junk SAMLResponse',
    send: (_, token, c) =>
      browserRequest(c.t, token, 'POST', '/api/Auth/Saml/slo/', { SAMLResponse: 'junk', RelayState: 'junk' }),
    expected: everyone(303),
  },
  {
    method: 'POST',
    route: '/api/Auth/Sso/Exchange/',
    case: 'a fresh sign-in code',
    url: () => '/api/Auth/Sso/Exchange/',
    body: async (_, c) => ({ code: await codeFor(c) }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/Sso/Exchange/',
    case: 'junk code',
    url: () => '/api/Auth/Sso/Exchange/',
    body: () => ({ code: 'junk' }),
    expected: everyone(410),
  },
  {
    method: 'GET',
    route: '/api/Auth/Sso/Link/',
    url: () => '/api/Auth/Sso/Link/',
    query: () => ({ code: 'junk' }),
    expected: everyone(410),
  },
  {
    method: 'POST',
    route: '/api/Auth/Sso/Link/',
    case: "a link code and the account's password",
    fresh: true,
    send: async (_, token, c) => {
      const owner = await createUser(c.t);
      const code = await codeFor(c, owner.email);
      const res = await c.t.app.inject({
        method: 'POST',
        url: '/api/Auth/Sso/Link/',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: { code, password: owner.password },
      });
      return { status: res.statusCode, body: res.json() };
    },
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/Sso/Link/',
    case: 'junk code',
    url: () => '/api/Auth/Sso/Link/',
    body: () => ({ code: 'junk', password: 'whatever-it-is' }),
    expected: everyone(410),
  },
];

const OWN_PREFIXES = ['/api/IdentityProvider/', '/api/SignInSettings/', '/api/Auth/Sso/', '/api/Auth/Saml/'];

/** The routes this matrix walks (users.matrix.test.ts leaves them out of the other Auth routes). */
const isIdentityRoute = (path: string): boolean =>
  OWN_PREFIXES.some((p) => path.startsWith(p)) ||
  path.startsWith('/api/Auth/Oidc/') ||
  /^\/api\/Auth\/User\/\{id\}\/identities\//.test(path);

describeMatrix<World, Caller>({
  title: 'authorization matrix: identity providers and institutional sign-in',
  callers: CALLERS,
  world,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: isIdentityRoute,
  // Every cell comes from the same address; this matrix is not about throttling.
  app: { env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' } },
});
