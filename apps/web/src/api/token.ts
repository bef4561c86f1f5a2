/** Seconds before expiry at which the client refreshes the access token (spec §9). */
export const REFRESH_THRESHOLD_SECONDS = 3600;

function decodeBase64Url(segment: string): string {
  const base64 = segment.replaceAll('-', '+').replaceAll('_', '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

// Every call checks the token it is about to send: the one token is decoded once, not once per call.
let lastDecoded: { token: string; expiry: number | null } | null = null;

/** The `exp` claim (seconds since the epoch) of a JWT, or null when the token carries none or is not a JWT. */
export function decodeTokenExpiry(token: string): number | null {
  if (lastDecoded?.token !== token) lastDecoded = { token, expiry: readExpiry(token) };
  return lastDecoded.expiry;
}

function readExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    if (typeof claims === 'object' && claims !== null && 'exp' in claims && typeof claims.exp === 'number') {
      return claims.exp;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * True when the token expires within `seconds`. A token whose expiry cannot be read counts as expiring:
 * refreshing costs one request, trusting a broken token costs a failed call.
 */
export function expiresWithin(token: string, seconds: number, nowMs: number = Date.now()): boolean {
  const exp = decodeTokenExpiry(token);
  if (exp === null) return true;
  return exp - nowMs / 1000 < seconds;
}
