import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret-0123456789';
/** The lifetime the verifier allows here, as ACCESS_TOKEN_LIFETIME would. */
const LIFETIME = 7200;

/**
 * An access token signed with the verifier's own secret (its signature is good), with the claims
 * chosen by the test: `iat`/`exp` in seconds, or null to leave the claim out.
 */
async function signWith(times: { iat: number | null; exp: number | null }, sessionId = 's-custom') {
  const jwt = new SignJWT({ sid: sessionId, token_type: 'access', user_id: 7 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('7');
  if (times.iat !== null) jwt.setIssuedAt(times.iat);
  if (times.exp !== null) jwt.setExpirationTime(times.exp);
  return jwt.sign(new TextEncoder().encode(SECRET));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('verifyAccessToken', () => {
  afterEach(() => vi.useRealTimers());

  it('still refuses a remembered token once it has expired', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-1' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toEqual({ userId: 7, sessionId: 's-1' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toEqual({ userId: 7, sessionId: 's-1' });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toBeNull();
  });

  it('does not take a token verified under one secret as valid under another', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-2' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).not.toBeNull();
    expect(await verifyAccessToken(`${SECRET}-other`, LIFETIME, token)).toBeNull();
  });

  it('refuses a token whose signature was altered after a valid one was remembered', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-3' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).not.toBeNull();
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await verifyAccessToken(SECRET, LIFETIME, forged)).toBeNull();
  });
});

describe('verifyAccessToken: lifetime claims', () => {
  it('accepts a token of our own making, whose exp - iat is exactly the lifetime', async () => {
    const token = await signAccessToken(SECRET, LIFETIME, { userId: 7, sessionId: 'l-1' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toEqual({ userId: 7, sessionId: 'l-1' });
    const now = nowSeconds();
    const handMade = await signWith({ iat: now, exp: now + LIFETIME }, 'l-2');
    expect(await verifyAccessToken(SECRET, LIFETIME, handMade)).toEqual({ userId: 7, sessionId: 'l-2' });
  });

  it('refuses a well-signed token without exp', async () => {
    const token = await signWith({ iat: nowSeconds(), exp: null }, 'l-3');
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toBeNull();
  });

  it('refuses a well-signed token without iat', async () => {
    const token = await signWith({ iat: null, exp: nowSeconds() + 60 }, 'l-4');
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toBeNull();
  });

  it('refuses a well-signed token with neither', async () => {
    const token = await signWith({ iat: null, exp: null }, 'l-5');
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).toBeNull();
  });

  it('refuses a well-signed, unexpired token that lives longer than the configured lifetime', async () => {
    const now = nowSeconds();
    const oneSecondTooLong = await signWith({ iat: now, exp: now + LIFETIME + 1 }, 'l-6');
    expect(await verifyAccessToken(SECRET, LIFETIME, oneSecondTooLong)).toBeNull();
    const aYear = await signWith({ iat: now - 60, exp: now + 365 * 86_400 }, 'l-7');
    expect(await verifyAccessToken(SECRET, LIFETIME, aYear)).toBeNull();
    // Made by the API's own signer, but with a longer lifetime than this verifier allows.
    const ours = await signAccessToken(SECRET, LIFETIME * 2, { userId: 7, sessionId: 'l-8' });
    expect(await verifyAccessToken(SECRET, LIFETIME, ours)).toBeNull();
  });

  it('refuses exp at or before iat', async () => {
    const now = nowSeconds();
    expect(
      await verifyAccessToken(SECRET, LIFETIME, await signWith({ iat: now + 60, exp: now + 60 })),
    ).toBeNull();
    expect(
      await verifyAccessToken(SECRET, LIFETIME, await signWith({ iat: now + 90, exp: now + 30 })),
    ).toBeNull();
  });

  it('refuses a token issued in the future (its life would run past the limit just the same)', async () => {
    const now = nowSeconds();
    const later = await signWith({ iat: now + 86_400, exp: now + 86_400 + LIFETIME }, 'l-future');
    expect(await verifyAccessToken(SECRET, LIFETIME, later)).toBeNull();
    // A minute of clock skew between instances is allowed.
    const skewed = await signWith({ iat: now + 30, exp: now + 30 + LIFETIME }, 'l-skew');
    expect(await verifyAccessToken(SECRET, LIFETIME, skewed)).not.toBeNull();
  });

  it('checks the lifetime of a remembered token again, against the lifetime now allowed', async () => {
    const token = await signAccessToken(SECRET, LIFETIME, { userId: 7, sessionId: 'l-9' });
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).not.toBeNull();
    expect(await verifyAccessToken(SECRET, LIFETIME - 1, token)).toBeNull();
    expect(await verifyAccessToken(SECRET, LIFETIME, token)).not.toBeNull();
  });
});
