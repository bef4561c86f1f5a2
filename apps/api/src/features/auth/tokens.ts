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
  // One clock reading for both claims: `exp - iat` is exactly the lifetime, which verifying insists on.
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: claims.sessionId, token_type: 'access', user_id: claims.userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(await keyOf(secret));
}

/**
 * Tokens already verified, per secret, with their expiry: every request of a signed-in page carries
 * the same token, and checking its HMAC again (an async WebCrypto job) was a tenth of a forum list
 * page's CPU. A verification is a pure function of the token and the secret, so remembering it changes
 * nothing but the cost; the expiry is still checked on every use, and the session row still is too
 * (lib/access.ts). Bounded: the oldest entries go first.
 */
interface VerifiedToken {
  claims: AccessClaims;
  /** `exp`, in milliseconds. */
  expiresAt: number;
  /** `exp - iat`, in seconds: checked again on every use, against the lifetime the caller allows. */
  lifetime: number;
}
const verified = new Map<string, Map<string, VerifiedToken>>();
const CLOCK_SKEW_SECONDS = 60;
const MAX_VERIFIED_TOKENS = 10_000;

function remember(secret: string, token: string, entry: VerifiedToken) {
  let bySecret = verified.get(secret);
  if (!bySecret) {
    bySecret = new Map();
    verified.set(secret, bySecret);
  }
  if (bySecret.size >= MAX_VERIFIED_TOKENS) {
    const oldest = bySecret.keys().next();
    if (!oldest.done) bySecret.delete(oldest.value);
  }
  bySecret.set(token, entry);
}

/**
 * Returns the claims of a valid, unexpired access token, or null for anything else. Besides the
 * signature, a token must say when it was issued (`iat`) and when it expires (`exp`), and live no
 * longer than `maxLifetimeSeconds` (ACCESS_TOKEN_LIFETIME): a token minted elsewhere with the secret
 * but without an end, or with a long one, is refused like a forged one (docs/auth.md, "Tokens").
 */
export async function verifyAccessToken(
  secret: string,
  maxLifetimeSeconds: number,
  token: string,
): Promise<AccessClaims | null> {
  const known = verified.get(secret)?.get(token);
  if (known) {
    return known.expiresAt > Date.now() && known.lifetime <= maxLifetimeSeconds ? known.claims : null;
  }
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      // jose checks `exp` against the clock only when a token has one; these make it refuse one without.
      requiredClaims: ['exp', 'iat'],
    });
    const { exp, iat } = payload;
    if (typeof exp !== 'number' || typeof iat !== 'number') return null;
    const lifetime = exp - iat;
    if (lifetime <= 0 || lifetime > maxLifetimeSeconds) return null;
    // Issued "later" would stretch its life past the limit just the same (a minute of clock skew allowed).
    if (iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) return null;
    const userId = Number(payload.sub);
    if (payload.token_type !== 'access' || typeof payload.sid !== 'string' || !Number.isInteger(userId))
      return null;
    const claims = { userId, sessionId: payload.sid };
    remember(secret, token, { claims, expiresAt: exp * 1000, lifetime });
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
