import {
  ATTRIBUTE_FIELDS,
  type AttributeField,
  type AttributeMap,
  type IdentityProvider,
  type IdentityProviderCreate,
  type IdentityProviderPatch,
  type IdpKind,
  type SamlIdSource,
} from '@kadai/contracts';

/** What the SAML metadata is given as: an address the server fetches, or the XML itself. */
export type MetadataSource = 'url' | 'xml';

/** The provider dialog's fields, all as the inputs hold them (text, switches). */
export interface ProviderFormValues {
  kind: IdpKind;
  slug: string;
  name_ja: string;
  name_en: string;
  email_domain: string;
  enabled: boolean;
  allow_create: boolean;
  metadata_source: MetadataSource;
  metadata_url: string;
  metadata_xml: string;
  id_source: SamlIdSource;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  /** Comma-separated attribute (SAML) or claim (OIDC) names per field; empty for the defaults. */
  attribute_map: Record<AttributeField, string>;
}

/** The metadata XML a file may hold (the contract's limit, 1 MB). */
export const MAX_METADATA_BYTES = 1_000_000;

/** The fields the server may name in a 400, as the form names them. */
export const PROVIDER_FORM_FIELDS = [
  'slug',
  'name_ja',
  'name_en',
  'email_domain',
  'metadata_url',
  'metadata_xml',
  'id_source',
  'issuer',
  'client_id',
  'client_secret',
  'scopes',
  ...ATTRIBUTE_FIELDS.map((field) => `attribute_map.${field}` as const),
] as const;

const EMPTY_MAP: Record<AttributeField, string> = {
  external_id: '',
  email: '',
  display_name: '',
  first_name: '',
  last_name: '',
  ja_display_name: '',
  ja_first_name: '',
  ja_last_name: '',
  institutional_id: '',
};

export function emptyProviderForm(kind: IdpKind = 'saml'): ProviderFormValues {
  return {
    kind,
    slug: '',
    name_ja: '',
    name_en: '',
    email_domain: '',
    enabled: true,
    allow_create: false,
    metadata_source: 'url',
    metadata_url: '',
    metadata_xml: '',
    id_source: 'attribute',
    issuer: '',
    client_id: '',
    client_secret: '',
    scopes: 'openid email profile',
    attribute_map: { ...EMPTY_MAP },
  };
}

export function providerToForm(provider: IdentityProvider): ProviderFormValues {
  const attributeMap = { ...EMPTY_MAP };
  for (const field of ATTRIBUTE_FIELDS)
    attributeMap[field] = (provider.attribute_map[field] ?? []).join(', ');
  return {
    ...emptyProviderForm(provider.kind),
    slug: provider.slug,
    name_ja: provider.name_ja,
    name_en: provider.name_en,
    email_domain: provider.email_domain ?? '',
    enabled: provider.enabled,
    allow_create: provider.allow_create,
    metadata_source: provider.saml?.metadata_url ? 'url' : 'xml',
    metadata_url: provider.saml?.metadata_url ?? '',
    id_source: provider.saml?.id_source ?? 'attribute',
    issuer: provider.oidc?.issuer ?? '',
    client_id: provider.oidc?.client_id ?? '',
    scopes: provider.oidc?.scopes ?? '',
    attribute_map: attributeMap,
  };
}

/** The names of a comma-separated list, without blanks. */
function names(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

function attributeMapOf(values: ProviderFormValues): AttributeMap {
  const map: AttributeMap = {};
  for (const field of ATTRIBUTE_FIELDS) {
    const list = names(values.attribute_map[field]);
    if (list.length > 0) map[field] = list;
  }
  return map;
}

function commonOf(values: ProviderFormValues) {
  return {
    name_ja: values.name_ja.trim(),
    name_en: values.name_en.trim(),
    email_domain: values.email_domain.trim() === '' ? null : values.email_domain.trim().toLowerCase(),
    enabled: values.enabled,
    allow_create: values.allow_create,
    attribute_map: attributeMapOf(values),
  };
}

/** A new provider: the fields of its kind, the metadata by address or as XML. */
export function toCreateBody(values: ProviderFormValues): IdentityProviderCreate {
  const slug = values.slug.trim();
  if (values.kind === 'oidc') {
    return {
      kind: 'oidc',
      slug,
      ...commonOf(values),
      issuer: values.issuer.trim(),
      client_id: values.client_id.trim(),
      client_secret: values.client_secret,
      scopes: values.scopes.trim() === '' ? undefined : values.scopes.trim(),
    };
  }
  return {
    kind: 'saml',
    slug,
    ...commonOf(values),
    id_source: values.id_source,
    ...(values.metadata_source === 'url'
      ? { metadata_url: values.metadata_url.trim() }
      : { metadata_xml: values.metadata_xml }),
  };
}

/**
 * A change: the common fields and those of the kind. New metadata is sent only when given (a changed
 * address, or XML pasted or uploaded); an empty secret keeps the stored one.
 */
export function toPatchBody(values: ProviderFormValues, provider: IdentityProvider): IdentityProviderPatch {
  const body: IdentityProviderPatch = commonOf(values);
  if (provider.kind === 'oidc') {
    body.issuer = values.issuer.trim();
    body.client_id = values.client_id.trim();
    if (values.scopes.trim() !== '') body.scopes = values.scopes.trim();
    if (values.client_secret !== '') body.client_secret = values.client_secret;
    return body;
  }
  body.id_source = values.id_source;
  const url = values.metadata_url.trim();
  if (values.metadata_source === 'url' && url !== '' && url !== (provider.saml?.metadata_url ?? '')) {
    body.metadata_url = url;
  }
  if (values.metadata_source === 'xml' && values.metadata_xml.trim() !== '') {
    body.metadata_xml = values.metadata_xml;
  }
  return body;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How soon a certificate ends: `expired`, `soon` (within 30 days) or `ok`. */
export function certificateState(notAfter: string, now: number = Date.now()): 'expired' | 'soon' | 'ok' {
  const end = Date.parse(notAfter);
  if (Number.isNaN(end)) return 'ok';
  if (end <= now) return 'expired';
  return end - now <= 30 * DAY_MS ? 'soon' : 'ok';
}
