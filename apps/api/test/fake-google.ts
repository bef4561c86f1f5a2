import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/*
 * A local server that answers as Google does for Google sign-in:
 * - POST /tokeninfo (form `access_token`), as https://oauth2.googleapis.com/tokeninfo: 200 with the
 *   token's client (`aud`, `azp`) and account, or 400 `invalid_token`;
 * - GET /v1/userinfo (`Authorization: Bearer`), as https://openidconnect.googleapis.com/v1/userinfo:
 *   200 with `sub`, `email`, `email_verified`, names, `picture`, `hd`, or 401;
 * - GET /gsi/client: a stand-in for Google's identity script. `google.accounts.oauth2.initTokenClient`
 *   returns a client whose `requestAccessToken()` calls back at once with the token stored in the
 *   page's localStorage under `fake-google-token` (no pop-up), or with `access_denied` when none is.
 * A token is `fg.` + base64url(JSON of the identity) (`fakeGoogleToken`), so a test says who signs in
 * without telling the server first; every other token is one Google rejects.
 * Run alone: `tsx apps/api/test/fake-google.ts [port]` (the e2e config does).
 */

export const FAKE_GOOGLE_CLIENT_ID = 'fake-google-client.apps.googleusercontent.com';
export const FAKE_GOOGLE_TOKEN_KEY = 'fake-google-token';

export interface FakeGoogleIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  hd?: string;
  /** The OAuth client the token was issued to (default FAKE_GOOGLE_CLIENT_ID). */
  aud?: string;
}

interface Failure {
  status: number;
  body?: string;
  /** Wait this long before answering (a slow or hung Google). */
  delayMs?: number;
}

export interface FakeGoogle {
  url: string;
  userinfoUrl: string;
  tokeninfoUrl: string;
  scriptUrl: string;
  /** "METHOD /path" of every request, in order. */
  requests: string[];
  /** The next requests to tokeninfo or userinfo fail like this, one failure each. */
  failNext(...failures: Failure[]): void;
  close(): Promise<void>;
}

export function fakeGoogleToken(identity: FakeGoogleIdentity): string {
  return `fg.${Buffer.from(JSON.stringify(identity)).toString('base64url')}`;
}

const Identity = z.object({
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  hd: z.string().optional(),
  aud: z.string().optional(),
});

function identityOf(token: string | null | undefined): FakeGoogleIdentity | null {
  if (!token?.startsWith('fg.')) return null;
  try {
    const parsed = Identity.safeParse(JSON.parse(Buffer.from(token.slice(3), 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

function tokenInfo(identity: FakeGoogleIdentity) {
  const aud = identity.aud ?? FAKE_GOOGLE_CLIENT_ID;
  return {
    azp: aud,
    aud,
    sub: identity.sub,
    scope:
      'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
    exp: String(Math.floor(Date.now() / 1000) + 3599),
    expires_in: '3599',
    ...(identity.email
      ? { email: identity.email, email_verified: String(identity.email_verified ?? false) }
      : {}),
    access_type: 'online',
  };
}

function userInfo(identity: FakeGoogleIdentity) {
  const given = identity.given_name;
  const family = identity.family_name;
  return {
    sub: identity.sub,
    ...(given || family ? { name: [given, family].filter(Boolean).join(' ') } : {}),
    ...(given ? { given_name: given } : {}),
    ...(family ? { family_name: family } : {}),
    picture: 'https://lh3.googleusercontent.com/a/fake-picture=s96-c',
    ...(identity.email ? { email: identity.email, email_verified: identity.email_verified ?? false } : {}),
    ...(identity.hd ? { hd: identity.hd } : {}),
  };
}

const SCRIPT = `(() => {
  const oauth2 = {
    initTokenClient(config) {
      window.__fakeGoogle = { clientId: config.client_id, scope: config.scope };
      return {
        requestAccessToken() {
          const token = window.localStorage.getItem(${JSON.stringify(FAKE_GOOGLE_TOKEN_KEY)});
          setTimeout(() =>
            config.callback(token
              ? { access_token: token, token_type: 'Bearer', expires_in: 3599, scope: config.scope }
              : { error: 'access_denied' }), 50);
        },
      };
    },
  };
  window.google = Object.assign(window.google || {}, { accounts: { oauth2 } });
})();
`;

export async function startFakeGoogle(options: { port?: number } = {}): Promise<FakeGoogle> {
  const requests: string[] = [];
  const failures: Failure[] = [];

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const failure = failures.shift();
    if (failure) {
      if (failure.delayMs) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      return send(res, failure.status, failure.body ?? '{"error":"fake failure"}');
    }
    if (url.pathname === '/tokeninfo') {
      const form = new URLSearchParams(req.method === 'POST' ? await readBody(req) : url.search);
      const identity = identityOf(form.get('access_token'));
      if (!identity) {
        return send(res, 400, JSON.stringify({ error: 'invalid_token', error_description: 'Invalid Value' }));
      }
      return send(res, 200, JSON.stringify(tokenInfo(identity)));
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const identity = identityOf(bearer?.[1]);
    if (!identity) {
      res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
      return send(
        res,
        401,
        JSON.stringify({ error: 'invalid_token', error_description: 'Invalid Credentials' }),
      );
    }
    return send(res, 200, JSON.stringify(userInfo(identity)));
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.google');
    requests.push(`${req.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname === '/health') return send(res, 200, '{"ok":true}');
    if (url.pathname === '/gsi/client') return send(res, 200, SCRIPT, 'text/javascript; charset=utf-8');
    if (url.pathname === '/tokeninfo' || url.pathname === '/v1/userinfo') {
      api(req, res, url).catch(() => send(res, 500, '{"error":"fake server error"}'));
      return;
    }
    return send(res, 404, '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    userinfoUrl: `${url}/v1/userinfo`,
    tokeninfoUrl: `${url}/tokeninfo`,
    scriptUrl: `${url}/gsi/client`,
    requests,
    failNext: (...more) => failures.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.argv[2] ?? 3199);
  const fake = await startFakeGoogle({ port });
  process.stdout.write(`fake Google on ${fake.url} (client id ${FAKE_GOOGLE_CLIENT_ID})\n`);
}
