import { createRemoteJWKSet } from 'jose';
import { readCappedText } from '../../lib/capped-body.ts';
import { HttpError } from '../../lib/errors.ts';

/*
 * Kadai's calls to a platform (openid-configuration, registration, tokens, line items, scores,
 * memberships). Each has a time limit and a size cap; a platform that cannot be reached or answers with
 * an error is a PlatformError, which a route turns into 502 and a job into a retry.
 */

const TIMEOUT_MS = 10_000;
/** A membership page of a large course is the biggest answer: 1,000 members of ~300 bytes. */
const MAX_BYTES = 5 * 1024 * 1024;

export class PlatformError extends Error {
  constructor(
    message: string,
    /** The platform's HTTP status; null when it could not be reached or its answer could not be read. */
    readonly status: number | null,
  ) {
    super(message);
  }

  /** A refusal that sending again will not change (4xx other than 408/429). */
  get isPermanent(): boolean {
    return (
      this.status !== null && this.status >= 400 && this.status < 500 && ![408, 429].includes(this.status)
    );
  }
}

/** 502 for a route: the platform, not the caller, failed. */
export const badGateway = (error: PlatformError) =>
  new HttpError(502, 'platform_unreachable', `The LMS could not be reached or refused: ${error.message}`);

export interface PlatformResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** One request to a platform; throws PlatformError when it fails or answers 4xx/5xx. */
export async function callPlatform(url: string, init: RequestInit = {}): Promise<PlatformResponse> {
  let response: Response;
  let text: string | null;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await readCappedText(response, MAX_BYTES);
  } catch (error) {
    throw new PlatformError(`${new URL(url).origin}: ${(error as Error).message}`, null);
  }
  if (text === null) throw new PlatformError(`${new URL(url).origin} answered more than 5 MB.`, null);
  if (!response.ok) {
    throw new PlatformError(
      `${new URL(url).origin} answered ${response.status}: ${text.slice(0, 300)}`,
      response.status,
    );
  }
  return { status: response.status, headers: response.headers, text };
}

/** The JSON body of a platform's answer. */
export async function callPlatformJson(url: string, init: RequestInit = {}): Promise<unknown> {
  return jsonOf(url, (await callPlatform(url, init)).text);
}

function jsonOf(url: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PlatformError(`${new URL(url).origin} answered something that is not JSON.`, null);
  }
}

/**
 * Each page of a paged platform service (AGS line items, NRPS memberships) as JSON, following the
 * `Link: <…>; rel="next"` header, at most `maxPages`; `headers` are asked anew for each page (a token
 * may expire between pages).
 */
export async function* platformPages(
  url: string,
  headers: () => Promise<Record<string, string>>,
  maxPages: number,
): AsyncGenerator<unknown> {
  let next: string | null = url;
  for (let page = 0; next && page < maxPages; page++) {
    const response: PlatformResponse = await callPlatform(next, { headers: await headers() });
    yield jsonOf(next, response.text);
    next = /<([^>]+)>;\s*rel="?next"?/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
  }
}

type RemoteJwks = ReturnType<typeof createRemoteJWKSet>;
const jwksSets = new Map<string, RemoteJwks>();

/**
 * The platform's keys, fetched on demand and cached by jose; a token signed with a kid not in the cache
 * makes it fetch again (a platform's key rotation), at most once a second.
 */
export function platformKeys(jwksUrl: string): RemoteJwks {
  let set = jwksSets.get(jwksUrl);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUrl), {
      timeoutDuration: TIMEOUT_MS,
      cooldownDuration: 1000,
      cacheMaxAge: 10 * 60_000,
    });
    jwksSets.set(jwksUrl, set);
  }
  return set;
}
