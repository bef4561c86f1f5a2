import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SAML, type Profile } from '@node-saml/node-saml';
import type { AppContext } from '../../lib/context.ts';
import { endSessions } from '../auth/auth.service.ts';
import { findProviderRow, listProviderRows, type ProviderRow } from './providers.repo.ts';
import { answeringRequest, recordingRequestId, samlFor } from './saml.service.ts';
import { SamlSettings } from './settings.ts';
import { spKeyPair, spUrls } from './sp.ts';
import { findSsoSession, insertSsoRequest, sessionsOfNameId, takeSsoRequest } from './sso.repo.ts';
import { newSsoRequest } from './sso.service.ts';

/*
 * SAML single logout and the SP's metadata. Sign-out in Kadai always ends the Kadai session; when the
 * session came from an IdP that offers single logout, the browser is then sent there with a signed
 * LogoutRequest (SP-initiated). An IdP's own LogoutRequest (IdP-initiated) ends every Kadai session of
 * that NameID (and session index) — only when it is signed by that IdP.
 */

const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The SP metadata to register with GakuNin or an IdP: entity id, ACS, SLO (both bindings), key. */
export async function spMetadataXml(ctx: AppContext): Promise<string> {
  const keys = await spKeyPair(ctx);
  const urls = spUrls(ctx);
  const saml = new SAML({
    issuer: urls.saml_entity_id,
    callbackUrl: urls.saml_acs_url,
    logoutCallbackUrl: urls.saml_slo_url,
    idpCert: keys.certificate,
    // node-saml publishes the certificate (for signing and for encryption) only when it is given the
    // private keys; without them the metadata had no KeyDescriptor at all.
    privateKey: keys.privateKey,
    decryptionPvk: keys.privateKey,
    identifierFormat: null,
    wantAssertionsSigned: true,
  });
  const xml = saml.generateServiceProviderMetadata(keys.certificate, keys.certificate);
  // node-saml lists single logout by HTTP-POST only; IdPs (Shibboleth, SimpleSAMLphp) prefer Redirect.
  return xml.replace(
    /(<SingleLogoutService [^>]*\/>)/,
    `<SingleLogoutService Binding="${REDIRECT}" Location="${urls.saml_slo_url}"/>$1`,
  );
}

/** Where to send the browser to end the IdP session too, or null (not a SAML session, no SLO). */
export async function samlLogoutUrl(ctx: AppContext, sessionId: string): Promise<string | null> {
  const session = await findSsoSession(ctx.db, sessionId);
  if (!session) return null;
  const provider = await findProviderRow(ctx.db, session.providerId);
  if (!provider?.enabled || !SamlSettings.parse(provider.settings).sloUrl) return null;
  const { id: relay, expiresAt } = newSsoRequest();
  await insertSsoRequest(ctx.db, { id: relay, providerId: provider.id, next: null, expiresAt });
  const { saml } = await samlFor(ctx, provider, recordingRequestId(ctx, relay));
  const user = {
    issuer: spUrls(ctx).saml_entity_id,
    nameID: session.nameId,
    nameIDFormat: session.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified',
    ...(session.sessionIndex ? { sessionIndex: session.sessionIndex } : {}),
  } as Profile;
  try {
    return await saml.getLogoutUrlAsync(user, relay, {});
  } catch (error) {
    ctx.log.warn({ err: error, provider: provider.slug }, 'saml logout request could not be made');
    return null;
  }
}

function issuerOf(message: string, deflated: boolean): string | null {
  try {
    const raw = Buffer.from(message, 'base64');
    const xml = (deflated ? inflateRawSync(raw, { maxOutputLength: 1_000_000 }) : raw).toString('utf8');
    const doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
    const issuer = doc.getElementsByTagNameNS(ASSERTION, 'Issuer')[0];
    return issuer?.textContent?.trim() ?? null;
  } catch {
    return null;
  }
}

async function providerByEntityId(ctx: AppContext, entityId: string | null): Promise<ProviderRow | null> {
  if (!entityId) return null;
  const rows = await listProviderRows(ctx.db);
  return (
    rows.find(
      (r) => r.kind === 'saml' && r.enabled && SamlSettings.safeParse(r.settings).data?.entityId === entityId,
    ) ?? null
  );
}

export interface SloMessage {
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState?: string;
  SigAlg?: string;
  Signature?: string;
}

/**
 * `GET|POST Auth/Saml/slo/`. A LogoutRequest from the IdP ends the sessions it names and answers with a
 * LogoutResponse; a LogoutResponse to our own request lands on the login page. Returns where to send
 * the browser; throws nothing the person could act on (a bad message lands on the login page too).
 */
export async function handleSlo(
  ctx: AppContext,
  message: SloMessage,
  binding: 'redirect' | 'post',
  rawQuery: string,
): Promise<string> {
  const done = '/login';
  try {
    if (message.SAMLRequest) {
      const provider = await providerByEntityId(ctx, issuerOf(message.SAMLRequest, binding === 'redirect'));
      if (!provider) throw new Error('LogoutRequest from an unknown issuer');
      if (binding === 'redirect' && !message.Signature) throw new Error('Unsigned LogoutRequest');
      const { saml } = await samlFor(ctx, provider);
      const { profile } =
        binding === 'redirect'
          ? await saml.validateRedirectAsync({ ...message }, rawQuery)
          : await saml.validatePostRequestAsync({ ...message } as Record<string, string>);
      if (!profile) throw new Error('LogoutRequest without a subject');
      const indexes = profile.sessionIndex ? [profile.sessionIndex] : [];
      const sessions = await sessionsOfNameId(ctx.db, provider.id, profile.nameID, indexes);
      const ended = await endSessions(
        ctx,
        sessions.map((s) => s.sessionId),
      );
      ctx.log.info(
        { provider: provider.slug, sessions: sessions.length, users: ended },
        'saml single logout',
      );
      return await saml.getLogoutResponseUrlAsync(profile, message.RelayState ?? '', {}, true);
    }
    if (message.SAMLResponse) {
      const request = message.RelayState ? await takeSsoRequest(ctx.db, message.RelayState) : null;
      const provider = request ? await findProviderRow(ctx.db, request.providerId) : null;
      if (!request || !provider) return done;
      const { saml } = await samlFor(ctx, provider, answeringRequest(request));
      if (binding === 'redirect') await saml.validateRedirectAsync({ ...message }, rawQuery);
      else await saml.validatePostResponseAsync({ SAMLResponse: message.SAMLResponse });
    }
  } catch (error) {
    ctx.log.warn({ cause: (error as Error).message }, 'saml single logout message refused');
  }
  return done;
}
