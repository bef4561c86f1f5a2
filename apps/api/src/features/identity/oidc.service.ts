import * as oidc from 'openid-client';
import type { AppContext } from '../../lib/context.ts';
import { SsoFailure } from './failure.ts';
import { oidcConfiguration } from './oidc.client.ts';
import { personFrom, type Person } from './person.ts';
import type { ProviderRow } from './providers.repo.ts';
import { unseal } from '../../lib/secrets.ts';
import { effectiveMap, OidcSettings } from './settings.ts';
import { spUrls } from './sp.ts';
import type { SsoRequestRow } from './sso.repo.ts';

/*
 * Kadai as an OpenID Connect relying party, through openid-client: the authorization-code flow with
 * PKCE (S256), state and nonce stored in sso_requests so whichever instance the answer reaches can finish it, the ID token
 * checked by openid-client (issuer, audience, signature from the provider's JWKS, expiry, nonce), and
 * userinfo read when the ID token lacks the e-mail or names. The person is keyed by `sub`.
 */

async function configurationOf(ctx: AppContext, provider: ProviderRow) {
  const settings = OidcSettings.parse(provider.settings);
  const secret = provider.secretEnc ? unseal(ctx.config.JWT_SECRET, provider.secretEnc) : null;
  if (secret === null) {
    throw new SsoFailure(
      'unavailable',
      `The client secret of ${provider.slug} cannot be opened (JWT_SECRET changed?).`,
    );
  }
  try {
    const config = await oidcConfiguration(
      { id: provider.id, version: provider.updatedAt.toISOString() },
      settings.issuer,
      settings.clientId,
      secret,
    );
    return { config, settings };
  } catch (error) {
    throw new SsoFailure(
      'unavailable',
      `Discovery at ${settings.issuer} failed: ${(error as Error).message}`,
    );
  }
}

export interface OidcStart {
  url: string;
  nonce: string;
  codeVerifier: string;
}

export async function oidcStart(ctx: AppContext, provider: ProviderRow, state: string): Promise<OidcStart> {
  const { config, settings } = await configurationOf(ctx, provider);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: spUrls(ctx).oidc_redirect_uri,
    scope: settings.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.toString(), nonce, codeVerifier };
}

/**
 * Which timestamp claim failed: openid-client's error only says "JWT timestamp claim value failed
 * validation"; the oauth4webapi error it wraps (its `cause`) carries `{ claim: 'exp' | 'nbf' | … }`.
 */
function timestampClaimOf(error: unknown): string | null {
  let at: unknown = error;
  for (let depth = 0; depth < 4 && at !== null && typeof at === 'object'; depth++) {
    const { claim, cause } = at as { claim?: unknown; cause?: unknown };
    if (typeof claim === 'string') return claim;
    at = cause;
  }
  return null;
}

function reasonOf(error: unknown): SsoFailure {
  const e = error as Error & { code?: string; error?: string; cause?: unknown };
  if (error instanceof oidc.AuthorizationResponseError) {
    return new SsoFailure(e.error === 'access_denied' ? 'refused' : 'invalid', `${e.error}: ${e.message}`);
  }
  if (e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return new SsoFailure(timestampClaimOf(error) === 'exp' ? 'expired' : 'clock_skew', e.message);
  }
  if (error instanceof oidc.ResponseBodyError) {
    // invalid_grant: the code was used, expired, or not ours.
    return new SsoFailure(e.error === 'invalid_grant' ? 'expired' : 'invalid', `${e.error}: ${e.message}`);
  }
  if (error instanceof TypeError || e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new SsoFailure('unavailable', `The provider could not be reached: ${e.message}`);
  }
  return new SsoFailure('invalid', `${e.code ?? e.name}: ${e.message}`);
}

/** Finishes the flow `request` began, from the query the provider sent the browser back with. */
export async function oidcConsume(
  ctx: AppContext,
  provider: ProviderRow,
  request: SsoRequestRow,
  query: string,
): Promise<Person> {
  const { config, settings } = await configurationOf(ctx, provider);
  const currentUrl = new URL(spUrls(ctx).oidc_redirect_uri);
  currentUrl.search = query;
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: request.codeVerifier ?? '',
      expectedState: request.id,
      expectedNonce: request.nonce ?? '',
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    const sub = claims.sub;
    const map = effectiveMap('oidc', settings.attributeMap);
    const lacks = [map.email, map.first_name, map.last_name].some((names) =>
      names.every((n) => claims[n] == null),
    );
    if (lacks && typeof sub === 'string' && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
      // The ID token's claims win; userinfo only fills the gaps.
      claims = { ...info, ...claims };
    }
  } catch (error) {
    throw reasonOf(error);
  }
  const person = personFrom(claims, effectiveMap('oidc', settings.attributeMap));
  if (!person) throw new SsoFailure('invalid', 'The ID token has no sub.');
  // OpenID Connect says whether the provider verified the address; an unverified one links nothing.
  if (claims.email_verified === false) person.email = null;
  return person;
}
