import { randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload } from 'jose';
import type { LtiToolKey } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { seal, unseal } from '../../lib/secrets.ts';
import { insertToolKey, listPublishedToolKeys, retireToolKeysBefore } from './keys.repo.ts';

/*
 * Kadai's own signing keys (LTI Security Framework §6): RS256 pairs kept in the database (the private
 * half sealed under JWT_SECRET) so every instance signs with the same key and the JWKS lists them all.
 * The newest unretired key signs. A rotation adds a new key and keeps the previous one published, so
 * platforms that cached the old JWKS still verify what was signed a moment ago (two keys in a rollover);
 * anything older is retired.
 */

const ALG = 'RS256';

interface SigningKey {
  kid: string;
  privateJwk: JWK;
}

async function makeKey(ctx: AppContext): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
  await insertToolKey(ctx.db, {
    kid,
    publicJwk,
    privateJwkEnc: seal(ctx.config.JWT_SECRET, JSON.stringify(privateJwk)),
  });
}

/** The published keys, newest first; made on first use. */
async function publishedKeys(ctx: AppContext) {
  let keys = await listPublishedToolKeys(ctx.db);
  if (keys.length === 0) {
    await makeKey(ctx);
    keys = await listPublishedToolKeys(ctx.db);
  }
  return keys;
}

/** The JWKS platforms fetch (`GET /api/Lti/jwks/`). */
export async function toolJwks(ctx: AppContext): Promise<{ keys: JWK[] }> {
  return { keys: (await publishedKeys(ctx)).map((k) => k.publicJwk as JWK) };
}

export async function listToolKeys(ctx: AppContext): Promise<LtiToolKey[]> {
  return (await publishedKeys(ctx)).map((k, i) => ({
    kid: k.kid,
    created_at: k.createdAt.toISOString(),
    current: i === 0,
  }));
}

/** A new current key; the one before stays published for the rollover, older ones are retired. */
export async function rotateToolKey(ctx: AppContext): Promise<LtiToolKey[]> {
  const before = await publishedKeys(ctx);
  await makeKey(ctx);
  const previous = before[0];
  if (previous) await retireToolKeysBefore(ctx.db, previous.id);
  return listToolKeys(ctx);
}

async function signingKey(ctx: AppContext): Promise<SigningKey> {
  const [newest] = await publishedKeys(ctx);
  const plain = newest && unseal(ctx.config.JWT_SECRET, newest.privateJwkEnc);
  if (!newest || !plain)
    throw new Error('The LTI tool key cannot be opened: JWT_SECRET changed since it was made.');
  return { kid: newest.kid, privateJwk: JSON.parse(plain) as JWK };
}

/** Signs `claims` with the current key, for `seconds`. */
export async function signAsTool(ctx: AppContext, claims: JWTPayload, seconds: number): Promise<string> {
  const key = await signingKey(ctx);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(await importJWK(key.privateJwk, ALG));
}
