import { z } from 'zod';
import { ATTRIBUTE_FIELDS, type AttributeField, type AttributeMap, type IdpKind } from '@kadai/contracts';

/*
 * What identity_providers.settings holds, checked on every read, and the attribute names a provider
 * reads by default: GakuNin's (urn:oid names, with friendly names as they may also arrive) for SAML,
 * the standard claims for OpenID Connect.
 */

const Names = z.array(z.string());
const StoredMap = z.partialRecord(z.enum(ATTRIBUTE_FIELDS), Names).default({});

export const SamlSettings = z.object({
  metadataUrl: z.string().nullable(),
  entityId: z.string(),
  ssoUrl: z.string(),
  sloUrl: z.string().nullable(),
  /** Base64 DER of each signing certificate the metadata lists. */
  certificates: z.array(z.string()).min(1),
  idSource: z.enum(['attribute', 'persistent_nameid']).default('attribute'),
  metadataFetchedAt: z.string().nullable().default(null),
  attributeMap: StoredMap,
});
export type SamlSettings = z.infer<typeof SamlSettings>;

export const OidcSettings = z.object({
  issuer: z.string(),
  clientId: z.string(),
  scopes: z.string().default('openid email profile'),
  attributeMap: StoredMap,
});
export type OidcSettings = z.infer<typeof OidcSettings>;

const EPPN = ['urn:oid:1.3.6.1.4.1.5923.1.1.1.6', 'eduPersonPrincipalName'];

export const SAML_DEFAULT_MAP: Record<AttributeField, string[]> = {
  external_id: EPPN,
  email: ['urn:oid:0.9.2342.19200300.100.1.3', 'mail', 'email'],
  display_name: ['urn:oid:2.16.840.1.113730.3.1.241', 'displayName'],
  first_name: ['urn:oid:2.5.4.42', 'givenName'],
  last_name: ['urn:oid:2.5.4.4', 'sn', 'surname'],
  ja_display_name: ['urn:oid:1.3.6.1.4.1.32264.1.1.3', 'jaDisplayName'],
  ja_first_name: ['urn:oid:1.3.6.1.4.1.32264.1.1.2', 'jaGivenName'],
  ja_last_name: ['urn:oid:1.3.6.1.4.1.32264.1.1.1', 'jasn'],
  institutional_id: EPPN,
};

export const OIDC_DEFAULT_MAP: Record<AttributeField, string[]> = {
  external_id: ['sub'],
  email: ['email'],
  display_name: ['name'],
  first_name: ['given_name'],
  last_name: ['family_name'],
  // OpenID Connect's language-tagged claims (Core §5.2).
  ja_display_name: ['name#ja-Jpan-JP', 'name#ja'],
  ja_first_name: ['given_name#ja-Jpan-JP', 'given_name#ja'],
  ja_last_name: ['family_name#ja-Jpan-JP', 'family_name#ja'],
  institutional_id: ['preferred_username'],
};

/** The names each field is read from: the provider's own where given, else the defaults. */
export function effectiveMap(kind: IdpKind, stored: AttributeMap): Record<AttributeField, string[]> {
  const defaults = kind === 'saml' ? SAML_DEFAULT_MAP : OIDC_DEFAULT_MAP;
  const out = { ...defaults };
  for (const field of ATTRIBUTE_FIELDS) {
    const names = stored[field];
    if (names && names.length > 0) out[field] = names;
  }
  // An OIDC person is always keyed by `sub`: another claim could be reassigned.
  if (kind === 'oidc') out.external_id = ['sub'];
  return out;
}
