import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { AppContext } from '../../lib/context.ts';
import { SsoFailure } from './failure.ts';
import { personFrom, type Person } from './person.ts';
import type { ProviderRow } from './providers.repo.ts';
import { toPem } from './saml-metadata.ts';
import { effectiveMap, SamlSettings } from './settings.ts';
import { spKeyPair, spUrls } from './sp.ts';
import { rememberAssertion, setSamlRequestId } from './sso.repo.ts';

/*
 * Kadai as a SAML 2.0 service provider, through node-saml (every signature check is its): signed
 * AuthnRequests by HTTP-Redirect, responses by HTTP-POST with the signature on the assertion or on
 * the response (either, never neither) from one of the IdP's certificates, audience, NotBefore and
 * NotOnOrAfter with CLOCK_SKEW_MS, InResponseTo against the request this server stored, the recipient,
 * and each assertion id accepted once (saml_assertions_seen, shared by every instance).
 */

export const CLOCK_SKEW_MS = 3 * 60 * 1000;
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

const noCache: CacheProvider = {
  saveAsync: async () => null,
  getAsync: async () => null,
  removeAsync: async () => null,
};

export async function samlFor(ctx: AppContext, provider: ProviderRow, cache: CacheProvider = noCache) {
  const settings = SamlSettings.parse(provider.settings);
  const keys = await spKeyPair(ctx);
  const urls = spUrls(ctx);
  const saml = new SAML({
    issuer: urls.saml_entity_id,
    callbackUrl: urls.saml_acs_url,
    logoutCallbackUrl: urls.saml_slo_url,
    entryPoint: settings.ssoUrl,
    logoutUrl: settings.sloUrl ?? settings.ssoUrl,
    idpIssuer: settings.entityId,
    idpCert: settings.certificates.map(toPem),
    audience: urls.saml_entity_id,
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60 * 1000,
    cacheProvider: cache,
    privateKey: keys.privateKey,
    decryptionPvk: keys.privateKey,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
  return { saml, settings };
}

/** node-saml's request cache, writing the ID of the request it makes into our sso_requests row `relay`. */
export function recordingRequestId(ctx: AppContext, relay: string): CacheProvider {
  return {
    ...noCache,
    saveAsync: async (key, value) => {
      await setSamlRequestId(ctx.db, relay, key);
      return { value, createdAt: Date.now() };
    },
  };
}

/** node-saml's request cache, knowing the one request `request` made (read as the time it was made). */
export function answeringRequest(request: { samlRequestId: string | null; createdAt: Date }): CacheProvider {
  return {
    ...noCache,
    getAsync: async (key) =>
      request.samlRequestId !== null && key === request.samlRequestId
        ? request.createdAt.toISOString()
        : null,
  };
}

/** The IdP's sign-in URL for a new AuthnRequest, remembered under `relay` (our sso_requests row). */
export async function samlStartUrl(ctx: AppContext, provider: ProviderRow, relay: string): Promise<string> {
  const { saml } = await samlFor(ctx, provider, recordingRequestId(ctx, relay));
  return saml.getAuthorizeUrlAsync(relay, undefined, {});
}

export interface SamlSignIn {
  person: Person;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

function reasonOf(error: Error): SsoFailure {
  const m = error.message;
  if (error.name === 'SamlStatusError' || /returned .* error/.test(m)) return new SsoFailure('refused', m);
  if (/not yet valid/.test(m)) return new SsoFailure('clock_skew', m);
  // An expired bearer confirmation reads "No valid subject confirmation found" (node-saml).
  if (/expired|InResponseTo|No valid subject confirmation/.test(m)) return new SsoFailure('expired', m);
  return new SsoFailure('invalid', m);
}

type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;
const first = (v: unknown): XmlNode | undefined => (Array.isArray(v) ? (v[0] as XmlNode) : undefined);

/** The assertion's ID, when it ends, and the Recipient of its bearer confirmation. */
function assertionFacts(profile: Profile): {
  id: string | null;
  notOnOrAfter: string | null;
  recipients: string[];
} {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const conditions = first(assertion?.Conditions);
  const subject = first(assertion?.Subject);
  const confirmations = Array.isArray(subject?.SubjectConfirmation)
    ? (subject.SubjectConfirmation as XmlNode[])
    : [];
  const recipients = confirmations
    .flatMap((c) =>
      Array.isArray(c.SubjectConfirmationData) ? (c.SubjectConfirmationData as XmlNode[]) : [],
    )
    .map((d) => d.$?.Recipient)
    .filter((r): r is string => typeof r === 'string');
  return {
    id: assertion?.$?.ID ?? null,
    notOnOrAfter: conditions?.$?.NotOnOrAfter ?? null,
    recipients,
  };
}

/**
 * Checks the IdP's answer to `request` (its AuthnRequest's ID) and reads the person from it. Throws
 * SsoFailure with what to tell the person.
 */
export async function samlConsume(
  ctx: AppContext,
  provider: ProviderRow,
  request: { samlRequestId: string | null; createdAt: Date },
  samlResponse: string,
): Promise<SamlSignIn> {
  const { saml, settings } = await samlFor(ctx, provider, answeringRequest(request));
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw reasonOf(error as Error);
  }
  if (!profile) throw new SsoFailure('refused', 'The IdP answered without an assertion (NoPassive).');
  const facts = assertionFacts(profile);
  const acs = spUrls(ctx).saml_acs_url;
  if (facts.recipients.length === 0 || facts.recipients.some((r) => r !== acs)) {
    throw new SsoFailure(
      'invalid',
      `The assertion's Recipient is not ${acs}: ${facts.recipients.join(', ')}`,
    );
  }
  if (!facts.id) throw new SsoFailure('invalid', 'The assertion has no ID.');
  const until = facts.notOnOrAfter ? new Date(facts.notOnOrAfter) : new Date(Date.now() + 60 * 60 * 1000);
  const keepUntil = new Date(Math.max(until.getTime(), Date.now()) + CLOCK_SKEW_MS);
  if (!(await rememberAssertion(ctx.db, provider.id, facts.id, keepUntil))) {
    throw new SsoFailure('expired', `Assertion ${facts.id} was already used (a replay).`);
  }
  const map = effectiveMap('saml', settings.attributeMap);
  let externalId: string | null = null;
  if (settings.idSource === 'persistent_nameid') {
    if (profile.nameIDFormat !== PERSISTENT || !profile.nameID) {
      throw new SsoFailure('invalid', `Expected a persistent NameID, got ${profile.nameIDFormat}.`);
    }
    externalId = profile.nameID;
  }
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const person = personFrom(attributes, map, externalId);
  if (!person) {
    throw new SsoFailure('invalid', `The assertion carries none of ${map.external_id.join(', ')}.`);
  }
  return {
    person,
    nameId: profile.nameID,
    nameIdFormat: profile.nameIDFormat ?? null,
    sessionIndex: profile.sessionIndex ?? null,
  };
}
