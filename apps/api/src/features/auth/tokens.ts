import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

// A CryptoKey imported once: jose would otherwise import raw bytes or a KeyObject on every request.
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
function keyOf(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      'raw',
      Buffer.from(secret, 'utf8'),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, key);
  }
  return key;
}

/** A short JWT naming the user and the session (refresh-token family) it belongs to. */
export async function signAccessToken(secret: string, lifetimeSeconds: number, claims: AccessClaims) {
  return new SignJWT({ sid: claims.sessionId, token_type: 'access', user_id: claims.userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
    .sign(await keyOf(secret));
}

/**
 * Tokens already verified, per secret, with their expiry: every request of a signed-in page carries
 * the same token, and checking its HMAC again (an async WebCrypto job) was a tenth of a forum list
 * page's CPU. A verification is a pure function of the token and the secret, so remembering it changes
 * nothing but the cost; the expiry is still checked on every use, and the session row still is too
 * (lib/access.ts). Bounded: the oldest entries go first.
 */
const verified = new Map<string, Map<string, { claims: AccessClaims; expiresAt: number }>>();
const MAX_VERIFIED_TOKENS = 10_000;

function remember(secret: string, token: string, claims: AccessClaims, expiresAt: number) {
  let bySecret = verified.get(secret);
  if (!bySecret) {
    bySecret = new Map();
    verified.set(secret, bySecret);
  }
  if (bySecret.size >= MAX_VERIFIED_TOKENS) {
    const oldest = bySecret.keys().next();
    if (!oldest.done) bySecret.delete(oldest.value);
  }
  bySecret.set(token, { claims, expiresAt });
}

/** Returns the claims of a valid, unexpired access token, or null for anything else. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  const known = verified.get(secret)?.get(token);
  if (known) return known.expiresAt > Date.now() ? known.claims : null;
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), { algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (payload.token_type !== 'access' || typeof payload.sid !== 'string' || !Number.isInteger(userId))
      return null;
    const claims = { userId, sessionId: payload.sid };
    // jose refuses a token without `exp` only when asked; ours always carry one.
    if (typeof payload.exp === 'number') remember(secret, token, claims, payload.exp * 1000);
    return claims;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/** Refresh tokens are opaque random strings; only their SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
