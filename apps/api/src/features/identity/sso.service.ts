import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { resolvePerson, type Outcome, type SamlSessionInfo } from './accounts.service.ts';
import { SsoFailure } from './failure.ts';
import { oidcConsume, oidcStart } from './oidc.service.ts';
import type { Person } from './person.ts';
import { findProviderRow, findProviderRowBySlug, type ProviderRow } from './providers.repo.ts';
import { samlConsume, samlStartUrl } from './saml.service.ts';
import { insertSsoRequest, pruneExpired, takeSsoRequest } from './sso.repo.ts';

/*
 * The browser's round trip: out to the provider (`start`), back at the ACS or the OIDC callback, and
 * on to the web app with a one-time code (or to the login page with a reason). Every failure is logged
 * with its technical cause; the page only learns which of SSO_ERRORS it was.
 */

const REQUEST_SECONDS = 10 * 60;

/** The id (RelayState, or OIDC state) and expiry of a new sso_requests row. */
export function newSsoRequest(): { id: string; expiresAt: Date } {
  return {
    id: randomBytes(24).toString('base64url'),
    expiresAt: new Date(Date.now() + REQUEST_SECONDS * 1000),
  };
}

export type Landing = { location: string };

const landingOf = (outcome: Outcome): Landing =>
  outcome.kind === 'sign_in'
    ? { location: `/login/sso?code=${encodeURIComponent(outcome.code)}` }
    : { location: `/login/sso?link=${encodeURIComponent(outcome.code)}` };

function failed(ctx: AppContext, error: unknown, provider: string | null): Landing {
  if (!(error instanceof SsoFailure)) throw error;
  ctx.log.warn({ provider, reason: error.reason, cause: error.message }, 'sso sign-in refused');
  return { location: `/login?sso_error=${error.reason}` };
}

/** `GET Auth/Sso/{slug}/start/`: where to send the browser (the provider, or back with a reason). */
export async function startSignIn(ctx: AppContext, slug: string, next: string | null): Promise<Landing> {
  const provider = await findProviderRowBySlug(ctx.db, slug);
  if (!provider) throw notFound('No such sign-in provider.');
  try {
    if (!provider.enabled) throw new SsoFailure('disabled', `${slug} is disabled.`);
    await pruneExpired(ctx.db);
    const { id, expiresAt } = newSsoRequest();
    if (provider.kind === 'saml') {
      await insertSsoRequest(ctx.db, { id, providerId: provider.id, next, expiresAt });
      return { location: await samlStartUrl(ctx, provider, id) };
    }
    const start = await oidcStart(ctx, provider, id);
    await insertSsoRequest(ctx.db, {
      id,
      providerId: provider.id,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      next,
      expiresAt,
    });
    return { location: start.url };
  } catch (error) {
    return failed(ctx, error, slug);
  }
}

async function requestAndProvider(ctx: AppContext, relay: string | undefined, kind: ProviderRow['kind']) {
  const request = relay ? await takeSsoRequest(ctx.db, relay) : null;
  if (!request) throw new SsoFailure('expired', 'Unknown, used or expired RelayState/state.');
  const provider = await findProviderRow(ctx.db, request.providerId);
  if (!provider || provider.kind !== kind)
    throw new SsoFailure('expired', 'The provider of this request is gone.');
  if (!provider.enabled) throw new SsoFailure('disabled', `${provider.slug} is disabled.`);
  return { request, provider };
}

async function finish(
  ctx: AppContext,
  provider: ProviderRow,
  person: Person,
  saml: SamlSessionInfo | null,
  next: string | null,
): Promise<Landing> {
  return landingOf(await resolvePerson(ctx, provider, person, saml, next));
}

/** `POST Auth/Saml/acs/`: the IdP's answer, by HTTP-POST. */
export async function samlAcs(
  ctx: AppContext,
  form: { SAMLResponse?: string; RelayState?: string },
): Promise<Landing> {
  let slug: string | null = null;
  try {
    const { request, provider } = await requestAndProvider(ctx, form.RelayState, 'saml');
    slug = provider.slug;
    if (!form.SAMLResponse) throw new SsoFailure('invalid', 'No SAMLResponse in the form.');
    const signIn = await samlConsume(ctx, provider, request, form.SAMLResponse);
    const { nameId, nameIdFormat, sessionIndex } = signIn;
    return await finish(ctx, provider, signIn.person, { nameId, nameIdFormat, sessionIndex }, request.next);
  } catch (error) {
    return failed(ctx, error, slug);
  }
}

/** `GET Auth/Oidc/callback/`: the provider sends the browser back with a code (or an error). */
export async function oidcCallback(ctx: AppContext, query: string): Promise<Landing> {
  let slug: string | null = null;
  try {
    const state = new URLSearchParams(query).get('state') ?? undefined;
    const { request, provider } = await requestAndProvider(ctx, state, 'oidc');
    slug = provider.slug;
    const person = await oidcConsume(ctx, provider, request, query);
    return await finish(ctx, provider, person, null, request.next);
  } catch (error) {
    return failed(ctx, error, slug);
  }
}
