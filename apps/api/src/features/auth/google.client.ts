import { z } from 'zod';
import { readCappedText } from '../../lib/capped-body.ts';

/*
 * Asks Google who an access token belongs to. Two calls, both configurable so tests can point them at
 * a local server (apps/api/test/fake-google.ts):
 * - tokeninfo: which OAuth client the token was issued to. Without this check a token the user gave
 *   to another site that signs in with Google could be replayed here to sign in as them.
 * - userinfo (OpenID Connect): the account's subject id, e-mail, whether Google verified it, names.
 * Each call has a time limit and a cap on the answer's size; the token goes in a header or a form
 * body, never in a URL that proxies might log.
 */

export type GoogleFailure =
  /** Google refused the token (expired, revoked, made up) or it was issued to another client. */
  | 'rejected'
  /** Google could not be reached, timed out, failed (5xx) or answered something unexpected. */
  | 'unavailable';

export class GoogleError extends Error {
  override name = 'GoogleError';
  constructor(
    readonly failure: GoogleFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface GoogleIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  /** The Google Workspace domain of the account, when it has one. */
  hostedDomain: string | null;
}

export interface GoogleEndpoints {
  userinfoUrl: string;
  tokeninfoUrl: string;
  clientId: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
/** Both answers are a few hundred bytes; a far larger one is not Google's. */
const MAX_BODY_BYTES = 64 * 1024;

/** userinfo sends a boolean; tokeninfo sends the string "true". */
const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const Text = z.string().max(500);

const UserInfoAnswer = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().max(254).optional(),
  email_verified: Flag.optional(),
  given_name: Text.optional(),
  family_name: Text.optional(),
  name: Text.optional(),
  hd: z.string().max(255).optional(),
});

const TokenInfoAnswer = z.object({
  aud: z.string(),
  azp: z.string().optional(),
  sub: z.string().optional(),
});

async function readCapped(response: Response): Promise<string> {
  const text = await readCappedText(response, MAX_BODY_BYTES);
  if (text === null) throw new GoogleError('unavailable', 'Google answered more than expected.');
  return text;
}

/** One call to Google: its JSON answer, or a GoogleError saying whose fault the failure is. */
async function ask(url: string, init: RequestInit, timeoutMs: number, what: string): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await readCapped(response);
  } catch (error) {
    if (error instanceof GoogleError) throw error;
    throw new GoogleError(
      'unavailable',
      `Google's ${what} could not be reached: ${(error as Error).message}`,
    );
  }
  // 4xx: Google looked at the token and refused it. 429 and 5xx are Google's trouble, not the user's.
  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    throw new GoogleError('rejected', `Google's ${what} refused the token (${response.status}).`);
  }
  if (!response.ok) throw new GoogleError('unavailable', `Google's ${what} answered ${response.status}.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new GoogleError('unavailable', `Google's ${what} answered something that is not JSON.`);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GoogleError(
      'unavailable',
      `Google's ${what} answered something unexpected: ${issue.path.join('.') || 'the body'}: ${issue.message}.`,
    );
  }
  return parsed.data;
}

/**
 * The Google account behind `accessToken`, once Google confirms the token was issued to our client.
 * Throws GoogleError: `rejected` when the token is not good for us, `unavailable` when Google is.
 */
export async function fetchGoogleIdentity(
  endpoints: GoogleEndpoints,
  accessToken: string,
): Promise<GoogleIdentity> {
  const timeoutMs = endpoints.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tokenInfo = parse(
    TokenInfoAnswer,
    await ask(
      endpoints.tokeninfoUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ access_token: accessToken }).toString(),
      },
      timeoutMs,
      'tokeninfo',
    ),
    'tokeninfo',
  );
  if (tokenInfo.aud !== endpoints.clientId && tokenInfo.azp !== endpoints.clientId) {
    throw new GoogleError('rejected', 'The token was issued to another application.');
  }
  const info = parse(
    UserInfoAnswer,
    await ask(
      endpoints.userinfoUrl,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
      timeoutMs,
      'userinfo',
    ),
    'userinfo',
  );
  if (tokenInfo.sub !== undefined && tokenInfo.sub !== info.sub) {
    throw new GoogleError('rejected', 'Google named two different accounts for one token.');
  }
  return {
    subject: info.sub,
    email: info.email?.trim().toLowerCase() || null,
    emailVerified: info.email_verified === true,
    givenName: (info.given_name ?? info.name ?? '').trim().slice(0, 150),
    familyName: (info.family_name ?? '').trim().slice(0, 150),
    hostedDomain: info.hd?.toLowerCase() ?? null,
  };
}
