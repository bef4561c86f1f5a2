import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Account, type ProviderContext } from 'oidc-provider';

/*
 * A real OpenID Connect provider for tests: oidc-provider 9 over plain HTTP on 127.0.0.1 (the relying
 * party allows insecure requests to loopback in tests). Sign-in is a small HTML form at
 * /interaction/<uid> with `login` and `password` that browser.ts fills in; consent is granted to the
 * one client without asking. Scope claims go into the ID token too (conformIdTokenClaims off).
 *
 * Misbehaviour for the relying party's refusals: the token endpoint's ID token is decoded, changed and
 * signed again with the provider's own key, so only the changed claim is wrong.
 */

export interface OidcAccount {
  sub: string;
  password: string;
  /** Claims beside `sub`: email, email_verified, name, family_name… (scope `profile` carries the rest). */
  claims: Record<string, unknown>;
}

export interface OidcMisbehaviour {
  /** ID tokens claim this `iss` instead of the issuer discovery announces. */
  issuerOverride?: string;
  /** ID tokens carry this `nonce` instead of the one the client sent. */
  forceNonce?: string;
  /** ID tokens expired ten minutes ago. */
  expiredIdToken?: boolean;
}

export interface OidcProviderOptions extends OidcMisbehaviour {
  client: {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    /** Default client_secret_post, what openid-client sends when given a secret. */
    token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
  };
  /** login (what the user types) → account. */
  accounts: Record<string, OidcAccount>;
  /** ID token lifetime in seconds (oidc-provider's default is 3600). */
  idTokenTtl?: number;
}

export interface OidcProvider {
  /** http://127.0.0.1:<port> */
  issuer: string;
  /** The public signing keys, as the jwks_uri serves them. */
  jwks: { keys: JWK[] };
  /** Changes the misbehaviour for the tokens issued from now on. */
  misbehave(misbehaviour: OidcMisbehaviour): void;
  stop(): Promise<void>;
}

const STANDARD_SCOPES: Record<string, string[]> = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
};

type Stored = Record<string, unknown> & { uid?: string; grantId?: string; consumed?: number };

/** One provider's state in a Map: its own (instead of oidc-provider's shared default, which warns). */
function memoryAdapter() {
  const store = new Map<string, Stored>();
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string): string {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Stored): Promise<void> {
      store.set(this.key(id), payload);
    }
    async find(id: string): Promise<Stored | undefined> {
      return store.get(this.key(id));
    }
    async findByUid(uid: string): Promise<Stored | undefined> {
      return [...store.values()].find((payload) => payload.uid === uid);
    }
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(uid: string, login: string, error?: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign in</title>
<h1>Sign in</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<input name="login" value="${escapeHtml(login)}" autofocus>
<input name="password" type="password">
<button type="submit">Sign in</button>
</form></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const signingJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };

  const accountsBySub = new Map(Object.values(options.accounts).map((account) => [account.sub, account]));
  const otherClaims = new Set(
    Object.values(options.accounts).flatMap((account) =>
      Object.keys(account.claims).filter((claim) => !STANDARD_SCOPES['email']?.includes(claim)),
    ),
  );
  let misbehaviour: OidcMisbehaviour = {
    issuerOverride: options.issuerOverride,
    forceNonce: options.forceNonce,
    expiredIdToken: options.expiredIdToken,
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.client_id,
        client_secret: options.client.client_secret,
        redirect_uris: options.client.redirect_uris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: options.client.token_endpoint_auth_method ?? 'client_secret_post',
      },
    ],
    adapter: memoryAdapter(),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { ...STANDARD_SCOPES, profile: [...otherClaims] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // Set, not left to oidc-provider's defaults, which print a notice each.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      IdToken: options.idTokenTtl ?? 3600,
    },
    findAccount: (_ctx: unknown, sub: string): Account | undefined => {
      const account = accountsBySub.get(sub);
      return account && { accountId: sub, claims: async () => ({ ...account.claims, sub }) };
    },
  });

  async function tamper(idToken: string): Promise<string> {
    const { issuerOverride, forceNonce, expiredIdToken } = misbehaviour;
    if (!issuerOverride && !forceNonce && !expiredIdToken) return idToken;
    const payload = decodeJwt(idToken);
    if (issuerOverride) payload.iss = issuerOverride;
    if (forceNonce) payload.nonce = forceNonce;
    if (expiredIdToken) {
      const now = Math.floor(Date.now() / 1000);
      Object.assign(payload, { iat: now - 1200, auth_time: now - 1200, exp: now - 600 });
    }
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
  }

  provider.use(async (ctx: ProviderContext, next) => {
    await next();
    if (ctx.path !== '/token' || typeof ctx.body !== 'object' || ctx.body === null) return;
    const body: { id_token?: unknown } = ctx.body;
    if (typeof body.id_token === 'string') body.id_token = await tamper(body.id_token);
  });

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action?: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (details.prompt.name === 'login') {
      if (action !== 'login' || req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid, ''));
        return;
      }
      const form = await readForm(req);
      const login = form.get('login') ?? '';
      const account = options.accounts[login];
      if (!account || account.password !== form.get('password')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(uid, login, 'Wrong login or password.'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent: granted to the client for whatever it asked, as for a first-party application.
    const accountId = details.session?.accountId ?? '';
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
    const { missingOIDCScope, missingOIDCClaims } = details.prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(\w+))?/.exec(req.url ?? '');
    if (!match?.[1]) {
      callback(req, res);
      return;
    }
    interaction(req, res, match[1], match[2]).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  return {
    issuer,
    jwks: { keys: [publicJwk] },
    misbehave: (next) => {
      misbehaviour = { ...next };
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
