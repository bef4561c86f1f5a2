import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { signAsTool } from './keys.ts';
import { callPlatformJson, PlatformError } from './platform-http.ts';
import type { PlatformRow } from './platforms.repo.ts';

/*
 * Access tokens for the platform's services (Security Framework §4.1): the client-credentials grant with
 * a JWT assertion signed by Kadai's key (RFC 7523). A token is kept until shortly before it expires,
 * per database, platform and scope set, so a course's scores do not each cost a token request.
 */

const TokenAnswer = z.object({
  access_token: z.string().min(1).max(8000),
  expires_in: z.coerce.number().positive().optional(),
});

/** Tokens are dropped this long before the platform says they expire (clocks, slow requests). */
const MARGIN_SECONDS = 30;
const DEFAULT_SECONDS = 3600;

type Cache = Map<string, { token: string; until: number }>;
const caches = new WeakMap<object, Cache>();

function cacheOf(ctx: AppContext): Cache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.db, cache);
  }
  return cache;
}

export async function platformToken(
  ctx: AppContext,
  platform: PlatformRow,
  scopes: string[],
): Promise<string> {
  const scope = [...new Set(scopes)].sort().join(' ');
  const key = `${platform.id}|${platform.tokenUrl}|${scope}`;
  const cache = cacheOf(ctx);
  const held = cache.get(key);
  if (held && held.until > Date.now()) return held.token;
  const assertion = await signAsTool(
    ctx,
    {
      iss: platform.clientId,
      sub: platform.clientId,
      aud: platform.tokenUrl,
      jti: randomBytes(16).toString('base64url'),
    },
    300,
  );
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
    scope,
  });
  const answer = TokenAnswer.safeParse(
    await callPlatformJson(platform.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    }),
  );
  if (!answer.success) throw new PlatformError('The token endpoint answered without an access_token.', null);
  const seconds = answer.data.expires_in ?? DEFAULT_SECONDS;
  cache.set(key, {
    token: answer.data.access_token,
    until: Date.now() + Math.max(0, seconds - MARGIN_SECONDS) * 1000,
  });
  return answer.data.access_token;
}

/** Forgets a token the platform refused (401): the next call asks for a new one. */
export function forgetPlatformTokens(ctx: AppContext, platformId: number): void {
  const cache = cacheOf(ctx);
  for (const key of cache.keys()) if (key.startsWith(`${platformId}|`)) cache.delete(key);
}
