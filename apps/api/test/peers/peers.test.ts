import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { startOidcProvider, type OidcProvider } from './oidc-op.ts';
import { makeKeyPair, startSimpleSamlIdp, type KeyPair, type SimpleSamlIdp } from './simplesamlphp.ts';

// The test peers proven without Kadai: node-saml plays the SAML service provider and openid-client the
// OpenID Connect relying party, browser.ts the user at the identity providers' login pages.

const SP = {
  entityId: 'https://kadai.test/api/Auth/Saml/metadata/',
  acsUrl: 'http://127.0.0.1:9/api/Auth/Saml/acs/',
  sloUrl: 'http://127.0.0.1:9/api/Auth/Saml/slo/',
};
const OID = {
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  eppn: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6',
  jaDisplayName: 'urn:oid:2.16.840.1.113730.3.1.241',
  affiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
};
const USERS = {
  yamada: {
    password: 'p@ss:w0rd',
    nameId: 'opaque-yamada-42',
    attributes: {
      [OID.mail]: ['yamada@example.ac.jp'],
      [OID.eppn]: ['yamada@example.ac.jp'],
      [OID.jaDisplayName]: ['山田 太郎'],
      [OID.affiliation]: ['student', 'member'],
    },
  },
};

function serviceProvider(idp: SimpleSamlIdp, extra: Partial<SamlConfig> = {}): SAML {
  return new SAML({
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.sloUrl,
    issuer: SP.entityId,
    callbackUrl: SP.acsUrl,
    audience: SP.entityId,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    identifierFormat: null,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.never,
    ...extra,
  });
}

async function samlSignIn(sp: SAML, browser = new Browser()) {
  const start = await sp.getAuthorizeUrlAsync('relay-1', undefined, {});
  const post = await browser.samlLogin(start, 'yamada', USERS.yamada.password);
  return { post, browser };
}

function decodedResponse(samlResponse: string): string {
  return Buffer.from(samlResponse, 'base64').toString('utf8');
}

describe('SimpleSAMLphp peer', () => {
  let spKeys: KeyPair;
  const idps: SimpleSamlIdp[] = [];
  beforeAll(async () => {
    spKeys = await makeKeyPair('kadai-test-sp');
  });
  afterAll(async () => {
    await Promise.all(idps.map((idp) => idp.stop()));
  });
  async function start(options: Partial<Parameters<typeof startSimpleSamlIdp>[0]> = {}) {
    const idp = await startSimpleSamlIdp({ sp: SP, users: USERS, ...options });
    idps.push(idp);
    return idp;
  }

  it('signs a user in with their attributes, UTF-8 intact, and logs them out from the IdP', async () => {
    const started = Date.now();
    const idp = await start({ assertionLifetime: 60 });
    const startMs = Date.now() - started;
    expect(startMs).toBeLessThan(5_000);
    expect(idp.metadataXml).toContain(`entityID="${idp.entityId}"`);
    expect(idp.metadataXml).toContain(idp.ssoUrl);

    const sp = serviceProvider(idp);
    const { post, browser } = await samlSignIn(sp);
    expect(post.action).toBe(SP.acsUrl);
    expect(post.fields.RelayState).toBe('relay-1');
    const { profile } = await sp.validatePostResponseAsync(post.fields);
    expect(profile?.issuer).toBe(idp.entityId);
    expect(profile?.nameID).toBe('opaque-yamada-42');
    expect(profile?.nameIDFormat).toBe('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(profile?.[OID.jaDisplayName]).toBe('山田 太郎');
    expect(profile?.[OID.mail]).toBe('yamada@example.ac.jp');
    expect(profile?.[OID.affiliation]).toEqual(['student', 'member']);
    expect(profile?.['kadai:nameid']).toBeUndefined();
    const xml = decodedResponse(post.fields.SAMLResponse);
    expect(xml).toContain('NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"');
    // assertionLifetime: NotOnOrAfter of the conditions is 60 s after NotBefore + the 30 s skew SimpleSAMLphp allows.
    const notBefore = Date.parse(/NotBefore="([^"]+)"/.exec(xml)?.[1] ?? '');
    const notOnOrAfter = Date.parse(/<saml:Conditions[^>]*NotOnOrAfter="([^"]+)"/.exec(xml)?.[1] ?? '');
    expect((notOnOrAfter - notBefore) / 1000).toBeLessThanOrEqual(60 + 30);

    // A second sign-in rides the IdP session: no password form.
    const again = await browser.samlLogin(await sp.getAuthorizeUrlAsync('relay-2', undefined, {}), 'x', 'y');
    expect(again.fields.RelayState).toBe('relay-2');

    // IdP-initiated logout: a LogoutRequest reaches the SP's SLO URL over HTTP-Redirect.
    const logout = await browser.follow(idp.initSloUrl('http://127.0.0.1:9/bye'), {
      stopAt: (next) => next.href.startsWith(SP.sloUrl),
    });
    const sloUrl = new URL(logout.url);
    expect(sloUrl.searchParams.get('SAMLRequest')).toBeTruthy();
    const query = Object.fromEntries(sloUrl.searchParams);
    const { profile: loggedOut, loggedOut: isLogout } = await sp.validateRedirectAsync(
      query,
      sloUrl.search.slice(1),
    );
    expect(isLogout).toBe(true);
    expect(loggedOut?.nameID).toBe('opaque-yamada-42');
  });

  it('answers an SP-initiated LogoutRequest with a LogoutResponse to the SP', async () => {
    const idp = await start();
    const sp = serviceProvider(idp);
    const { post, browser } = await samlSignIn(sp);
    const { profile } = await sp.validatePostResponseAsync(post.fields);
    if (!profile) throw new Error('no profile');
    const logout = await browser.follow(await sp.getLogoutUrlAsync(profile, 'bye', {}), {
      stopAt: (next) => next.href.startsWith(SP.sloUrl),
    });
    const sloUrl = new URL(logout.url);
    expect(sloUrl.searchParams.get('SAMLResponse')).toBeTruthy();
    expect(sloUrl.searchParams.get('RelayState')).toBe('bye');
    const query = Object.fromEntries(sloUrl.searchParams);
    await expect(sp.validateRedirectAsync(query, sloUrl.search.slice(1))).resolves.toMatchObject({
      loggedOut: true,
    });
  });

  it('refuses a wrong password', async () => {
    const idp = await start();
    const sp = serviceProvider(idp);
    const url = await sp.getAuthorizeUrlAsync('', undefined, {});
    await expect(new Browser().samlLogin(url, 'yamada', 'wrong')).rejects.toThrow(
      /wrong username or password/,
    );
  });

  it('encrypts the assertion to the SP certificate and signs the response on request', async () => {
    const idp = await start({
      sp: { ...SP, certificate: spKeys.cert },
      encryptAssertion: true,
      signResponse: true,
      users: { yamada: { ...USERS.yamada, attributes: { mail: ['yamada@example.ac.jp'], sn: ['山田'] } } },
    });
    const sp = serviceProvider(idp, { decryptionPvk: spKeys.key, wantAuthnResponseSigned: true });
    const { post } = await samlSignIn(sp);
    const xml = decodedResponse(post.fields.SAMLResponse);
    expect(xml).toContain('EncryptedAssertion');
    expect(xml).not.toContain('yamada@example.ac.jp');
    const { profile } = await sp.validatePostResponseAsync(post.fields);
    expect(profile?.['sn']).toBe('山田');
    // Without the key the SP cannot read it.
    await expect(serviceProvider(idp).validatePostResponseAsync(post.fields)).rejects.toThrow();
  });

  it('publishes every key for rollover and signs with the first', async () => {
    const [current, next] = await Promise.all([makeKeyPair('idp-current'), makeKeyPair('idp-next')]);
    const idp = await start({ keyPairs: [current, next] });
    const body = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(idp.metadataXml).toContain(body(current.cert));
    expect(idp.metadataXml).toContain(body(next.cert));
    expect(idp.certificates).toEqual([current.cert, next.cert]);

    const { post } = await samlSignIn(serviceProvider(idp));
    await expect(
      serviceProvider(idp, { idpCert: [next.cert, current.cert] }).validatePostResponseAsync(post.fields),
    ).resolves.toMatchObject({ loggedOut: false });
    await expect(
      serviceProvider(idp, { idpCert: next.cert }).validatePostResponseAsync(post.fields),
    ).rejects.toThrow(/signature/i);
  });
});

const CLIENT = {
  client_id: 'kadai',
  client_secret: 'kadai-secret-0123456789',
  redirect_uris: ['http://127.0.0.1:9/api/Auth/Oidc/callback/'],
};
const REDIRECT_URI = 'http://127.0.0.1:9/api/Auth/Oidc/callback/';
const ACCOUNTS = {
  'yamada@example.ac.jp': {
    sub: 'sub-yamada-1',
    password: 'p@ssw0rd',
    claims: { email: 'yamada@example.ac.jp', email_verified: true, name: '山田 太郎', family_name: '山田' },
  },
};

async function oidcSignIn(op: OidcProvider, browser = new Browser()) {
  const config = await oidc.discovery(new URL(op.issuer), CLIENT.client_id, CLIENT.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await browser.oidcLogin(
    url.href,
    'yamada@example.ac.jp',
    ACCOUNTS['yamada@example.ac.jp'].password,
  );
  const exchange = () =>
    oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
  return { callback, exchange, browser };
}

describe('oidc-provider peer', () => {
  let op: OidcProvider;
  beforeAll(async () => {
    op = await startOidcProvider({ client: CLIENT, accounts: ACCOUNTS, idTokenTtl: 120 });
  });
  afterAll(async () => {
    await op.stop();
  });

  it('signs a user in by code flow with PKCE and gives the claims in the ID token', async () => {
    const { callback, exchange, browser } = await oidcSignIn(op);
    expect(callback.startsWith(REDIRECT_URI)).toBe(true);
    const tokens = await exchange();
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: op.issuer,
      aud: CLIENT.client_id,
      sub: 'sub-yamada-1',
      email: 'yamada@example.ac.jp',
      email_verified: true,
      name: '山田 太郎',
    });
    expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(120);
    // The provider's session: a second sign-in asks for no password.
    const again = await oidcSignIn(op, browser);
    await expect(again.exchange()).resolves.toBeTruthy();
  });

  it('shows the form again on a wrong password', async () => {
    const config = await oidc.discovery(
      new URL(op.issuer),
      CLIENT.client_id,
      CLIENT.client_secret,
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state: 's',
    });
    await expect(new Browser().oidcLogin(url.href, 'yamada@example.ac.jp', 'wrong')).rejects.toThrow(
      /wrong login or password/,
    );
  });

  it.each([
    ['issuerOverride', { issuerOverride: 'http://127.0.0.1:1/impostor' }, 'iss'],
    ['forceNonce', { forceNonce: 'not-the-nonce' }, 'nonce'],
    ['expiredIdToken', { expiredIdToken: true }, 'exp'],
  ] as const)('%s makes the relying party refuse the ID token', async (_name, misbehaviour, claim) => {
    op.misbehave(misbehaviour);
    try {
      const { exchange } = await oidcSignIn(op);
      await expect(exchange()).rejects.toMatchObject({ cause: { cause: { claim } } });
    } finally {
      op.misbehave({});
    }
  });
});
