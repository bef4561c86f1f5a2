import * as oidc from 'openid-client';

/*
 * The OpenID provider's configuration (discovery), kept per process for an hour per provider version.
 * Plain http is refused except for a provider on this machine's loopback (a test's, or one behind a
 * local proxy); every other issuer must be https.
 */

export const OIDC_TIMEOUT_SECONDS = 10;
const CACHE_MS = 60 * 60 * 1000;
/** The same allowance as SAML's (saml.service.ts CLOCK_SKEW_MS) for exp, iat and nbf. */
const CLOCK_TOLERANCE_SECONDS = 180;

export class IssuerError extends Error {}

export function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function checkIssuerUrl(issuer: string): URL {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new IssuerError('The issuer must be an https URL.');
  }
  return url;
}

const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/** `version` (the provider row's updated_at) makes a change of settings fetch discovery again. */
export function oidcConfiguration(
  key: { id: number; version: string },
  issuer: string,
  clientId: string,
  clientSecret: string,
): Promise<oidc.Configuration> {
  const cacheKey = `${key.id}:${key.version}`;
  const hit = cache.get(cacheKey);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.config;
  const url = checkIssuerUrl(issuer);
  const metadata = { client_secret: clientSecret, [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS };
  const config = oidc.discovery(url, clientId, metadata, oidc.ClientSecretPost(clientSecret), {
    timeout: OIDC_TIMEOUT_SECONDS,
    ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  // A failed discovery is not remembered: the next sign-in tries again.
  config.catch(() => cache.delete(cacheKey));
  for (const k of cache.keys()) if (k.startsWith(`${key.id}:`)) cache.delete(k);
  cache.set(cacheKey, { at: Date.now(), config });
  return config;
}

/** Checks on save that the issuer answers discovery as itself; the reason when it does not. */
export async function probeIssuer(issuer: string, clientId: string): Promise<string | null> {
  try {
    const url = checkIssuerUrl(issuer);
    await oidc.discovery(url, clientId, undefined, undefined, {
      timeout: OIDC_TIMEOUT_SECONDS,
      ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    return null;
  } catch (error) {
    if (error instanceof IssuerError) throw error;
    return (error as Error).message;
  }
}
