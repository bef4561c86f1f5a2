import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { parseForm, type Form } from './browser.ts';
import type { LtiPlatform, LtiToolConfig, PreparedLtiLaunch } from './lti-platform.ts';
import { JWT_BEARER } from './lti-shapes.ts';

/*
 * A minimal LTI tool for the emulator's own test (lti-platform.test.ts): an RS256 key pair whose
 * public half a tiny HTTP server serves as JWKS, and the few requests a tool makes, done by hand so
 * the test can also make them wrong. Its login and launch URLs are never requested: the test reads
 * the login initiation URL itself and posts nothing to the redirect URI.
 */

export interface FakeTool {
  baseUrl: string;
  loginUrl: string;
  redirectUri: string;
  jwksUrl: string;
  kid: string;
  /** The manual registration of this tool with `clientId` and `deploymentId`. */
  config(clientId: string, deploymentId: string): LtiToolConfig;
  /** Signs with the tool's published key, or with one no JWKS lists. */
  sign(payload: JWTPayload, options?: { unknownKey?: boolean }): Promise<string>;
  /** A SEC §4.1.1 client assertion for the platform's token endpoint. */
  assertion(
    platform: LtiPlatform,
    clientId: string,
    options?: { jti?: string; unknownKey?: boolean },
  ): Promise<string>;
  /** Posts a client-credentials token request with `assertion`. */
  requestToken(platform: LtiPlatform, assertion: string, scope: string): Promise<Response>;
  /** SEC §5.1.1.2: answers the login initiation with an authentication request; `overrides` replace its fields. */
  authenticate(
    platform: LtiPlatform,
    launch: PreparedLtiLaunch,
    overrides?: Record<string, string>,
  ): Promise<{ status: number; body: string; form?: Form; nonce: string; state: string }>;
  close(): Promise<void>;
}

async function keyPair(): Promise<{ kid: string; privateKey: CryptoKey; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function startFakeTool(): Promise<FakeTool> {
  const key = await keyPair();
  const server = createServer((req, res) => {
    if (req.url === '/jwks') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [key.publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  // localhost, not 127.0.0.1: the tool is another site than the platform, as it will be in the browser tests.
  const baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${baseUrl}/lti/launch`;

  const sign: FakeTool['sign'] = async (payload, options = {}) => {
    const signer = options.unknownKey ? await keyPair() : key;
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: signer.kid }).sign(signer.privateKey);
  };

  return {
    baseUrl,
    loginUrl: `${baseUrl}/lti/login`,
    redirectUri,
    jwksUrl: `${baseUrl}/jwks`,
    kid: key.kid,
    config: (clientId, deploymentId) => ({
      clientId,
      deploymentId,
      loginUrl: `${baseUrl}/lti/login`,
      redirectUris: [redirectUri],
      jwksUrl: `${baseUrl}/jwks`,
    }),
    sign,
    assertion: (platform, clientId, options = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const jti = options.jti ?? randomBytes(12).toString('hex');
      const claims = { iss: clientId, sub: clientId, aud: platform.tokenUrl, iat: now, exp: now + 300, jti };
      return sign(claims, { unknownKey: options.unknownKey });
    },
    requestToken: (platform, assertion, scope) =>
      fetch(platform.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: JWT_BEARER,
          client_assertion: assertion,
          scope,
        }),
      }),
    authenticate: async (platform, launch, overrides = {}) => {
      const initiation = new URL(launch.loginInitiationUrl).searchParams;
      const nonce = randomBytes(12).toString('hex');
      const state = randomBytes(12).toString('hex');
      const request = new URL(platform.authUrl);
      const fields: Record<string, string> = {
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: initiation.get('client_id') ?? '',
        redirect_uri: redirectUri,
        login_hint: initiation.get('login_hint') ?? '',
        lti_message_hint: initiation.get('lti_message_hint') ?? '',
        nonce,
        state,
        ...overrides,
      };
      for (const [name, value] of Object.entries(fields)) request.searchParams.set(name, value);
      const response = await fetch(request);
      const body = await response.text();
      const form = response.status === 200 ? parseForm(body, request.href) : undefined;
      return {
        status: response.status,
        body,
        form,
        nonce: fields.nonce ?? nonce,
        state: fields.state ?? state,
      };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
