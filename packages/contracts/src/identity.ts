import { z } from 'zod';
import { str } from './common.ts';

/*
 * Sign-in through the institution's identity provider (issue 37, docs/sign-in.md): SAML 2.0
 * (Shibboleth, GakuNin) and OpenID Connect providers kept as data by staff, or declared in the
 * environment. Secrets go in and never come out.
 */

export const IDP_KINDS = ['saml', 'oidc'] as const;
export const IdpKind = z.enum(IDP_KINDS);
export type IdpKind = z.infer<typeof IdpKind>;

/** The part of a URL that names a provider: `/api/Auth/Sso/{slug}/start/`. */
export const IdpSlug = str()
  .trim()
  .min(2)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Use lower-case letters, digits and hyphens.');

/** Which of the person's attributes (SAML) or claims (OIDC) fill each field; the first one present wins. */
export const ATTRIBUTE_FIELDS = [
  'external_id',
  'email',
  'display_name',
  'first_name',
  'last_name',
  'ja_display_name',
  'ja_first_name',
  'ja_last_name',
  'institutional_id',
] as const;
export type AttributeField = (typeof ATTRIBUTE_FIELDS)[number];
const AttributeNames = z.array(str().trim().min(1).max(200)).max(8);
export const AttributeMap = z.strictObject(
  Object.fromEntries(ATTRIBUTE_FIELDS.map((f) => [f, AttributeNames.optional()])) as Record<
    AttributeField,
    z.ZodOptional<typeof AttributeNames>
  >,
);
export type AttributeMap = z.infer<typeof AttributeMap>;

/**
 * SAML: where the stable id comes from. `attribute` reads `attribute_map.external_id` (by default
 * eduPersonPrincipalName); `persistent_nameid` takes the NameID when its format is persistent.
 */
export const SamlIdSource = z.enum(['attribute', 'persistent_nameid']);
export type SamlIdSource = z.infer<typeof SamlIdSource>;

export const IdpCertificate = z.object({
  fingerprint_sha256: z.string(),
  subject: z.string(),
  not_after: z.string(),
});
export type IdpCertificate = z.infer<typeof IdpCertificate>;

/** An http(s) URL, as the text helpers take text (no control characters). */
export const HttpUrl = str()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Not an http(s) URL.');

const Names = {
  name_ja: str().trim().min(1).max(100),
  name_en: str().trim().min(1).max(100),
};
const EmailDomain = str()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, 'Not a domain name.');

const Common = {
  ...Names,
  /** Shown as a hint under the button ("for @u-tokyo.ac.jp"); null for none. */
  email_domain: EmailDomain.nullable().optional(),
  enabled: z.boolean().optional(),
  /** New users may be created on first sign-in. */
  allow_create: z.boolean().optional(),
  attribute_map: AttributeMap.optional(),
};

/** A SAML IdP: metadata by URL (fetched by the server) or pasted/uploaded as XML; one of the two. */
export const SamlProviderInput = z.strictObject({
  kind: z.literal('saml'),
  slug: IdpSlug,
  ...Common,
  metadata_url: HttpUrl.optional(),
  metadata_xml: str().max(1_000_000).optional(),
  /** Picks the IdP when the metadata is a federation's aggregate (EntitiesDescriptor). */
  entity_id: str().trim().min(1).max(1000).optional(),
  id_source: SamlIdSource.optional(),
});

export const OidcProviderInput = z.strictObject({
  kind: z.literal('oidc'),
  slug: IdpSlug,
  ...Common,
  issuer: HttpUrl,
  client_id: str().trim().min(1).max(500),
  client_secret: str().min(1).max(2000),
  scopes: str().trim().min(1).max(500).optional(),
});

export const IdentityProviderCreate = z.discriminatedUnion('kind', [SamlProviderInput, OidcProviderInput]);
export type IdentityProviderCreate = z.infer<typeof IdentityProviderCreate>;

/** A change: some of the fields; `metadata_url` or `metadata_xml` replace the IdP's metadata (a rollover). */
export const IdentityProviderPatch = z
  .strictObject({
    ...Names,
    ...Common,
    metadata_url: HttpUrl,
    metadata_xml: str().max(1_000_000),
    entity_id: str().trim().min(1).max(1000),
    /** Fetch `metadata_url` again now. */
    refresh_metadata: z.literal(true),
    id_source: SamlIdSource,
    issuer: HttpUrl,
    client_id: str().trim().min(1).max(500),
    client_secret: str().min(1).max(2000),
    scopes: str().trim().min(1).max(500),
  })
  .partial();
export type IdentityProviderPatch = z.infer<typeof IdentityProviderPatch>;

export const IdentityProvider = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    kind: IdpKind,
    name_ja: z.string(),
    name_en: z.string(),
    email_domain: z.string().nullable(),
    enabled: z.boolean(),
    allow_create: z.boolean(),
    /** `env`: declared in IDENTITY_PROVIDERS, read-only here. */
    managed_by: z.enum(['app', 'env']),
    attribute_map: z.record(z.string(), z.array(z.string())),
    saml: z
      .object({
        metadata_url: z.string().nullable(),
        entity_id: z.string(),
        sso_url: z.string(),
        slo_url: z.string().nullable(),
        certificates: z.array(IdpCertificate),
        id_source: SamlIdSource,
        metadata_fetched_at: z.string().nullable(),
      })
      .nullable(),
    oidc: z
      .object({
        issuer: z.string(),
        client_id: z.string(),
        scopes: z.string(),
        /** Whether a secret is stored; the secret itself is never returned. */
        has_client_secret: z.boolean(),
      })
      .nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'IdentityProvider' });
export type IdentityProvider = z.infer<typeof IdentityProvider>;

export const IdentityProviderList = z.object({ results: z.array(IdentityProvider) });
export const IdentityProviderParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** What the login page needs: one button per enabled provider. */
export const PublicIdentityProvider = z.object({
  slug: z.string(),
  kind: IdpKind,
  name_ja: z.string(),
  name_en: z.string(),
  email_domain: z.string().nullable(),
});
export type PublicIdentityProvider = z.infer<typeof PublicIdentityProvider>;

/** Installation-wide sign-in settings (staff). */
export const SignInSettings = z.strictObject({
  /** People whose e-mail is at one of these domains (or a subdomain) do not sign in with a password. */
  password_hidden_domains: z.array(EmailDomain).max(50),
});
export type SignInSettings = z.infer<typeof SignInSettings>;

/** The SP's own details, for the settings page: what to register with GakuNin or the IdP. */
export const ServiceProviderInfo = z.object({
  saml_entity_id: z.string(),
  saml_metadata_url: z.string(),
  saml_acs_url: z.string(),
  saml_slo_url: z.string(),
  oidc_redirect_uri: z.string(),
});
export type ServiceProviderInfo = z.infer<typeof ServiceProviderInfo>;

/** Query of `GET /Auth/Sso/{slug}/start/`: the page to land on afterwards (a path of this app). */
export const SsoStartQuery = z.object({
  next: str()
    .max(2000)
    // One slash, then neither a second one nor a backslash (`//host`, `/\\host` leave the site). No
    // lookahead: the OpenAPI pattern must stay one that generators (the fuzz test's) can follow.
    .regex(/^\/(?:[^/\\]|$)/, 'A path of this site.')
    .optional(),
});

/** The one-time code the sign-in hands to the web app (`/login/sso?code=`). */
export const SsoExchangeRequest = z.strictObject({ code: str().trim().min(1).max(200) });
export const SsoExchangeResponse = z.object({
  access: z.string(),
  refresh: z.string(),
  user: z.object({ pk: z.number().int(), email: z.string() }),
  /** Where the person was going when they started signing in, or null. */
  next: z.string().nullable(),
});
export type SsoExchangeResponse = z.infer<typeof SsoExchangeResponse>;

/**
 * Linking a first institutional sign-in to an existing account of the same e-mail: the person proves
 * they own that account with its password (`/login/sso?link=`).
 */
export const SsoLinkRequest = z.strictObject({
  code: str().trim().min(1).max(200),
  password: str().min(1).max(1024),
});
/** What the link page shows before asking for the password. */
export const SsoLinkInfo = z.object({
  email: z.string(),
  provider: PublicIdentityProvider,
  /** False: the account has no password yet, so only staff (or a set-password link) can help. */
  has_password: z.boolean().default(true),
});
export type SsoLinkInfo = z.infer<typeof SsoLinkInfo>;

/**
 * Why a sign-in ended on the login page (`/login?sso_error=`). Each one is a sentence the person can act
 * on; the technical reason is only in the server log.
 */
export const SSO_ERRORS = [
  'expired',
  'refused',
  'no_account',
  'clock_skew',
  'invalid',
  'inactive',
  'unavailable',
  'disabled',
  'account_mismatch',
  'no_email',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** One of a user's institutional identities (staff, or the user themselves). */
export const LinkedIdentity = z.object({
  id: z.number().int(),
  provider: PublicIdentityProvider.extend({ id: z.number().int() }),
  external_id: z.string(),
  institutional_id: z.string().nullable(),
  email: z.string().nullable(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type LinkedIdentity = z.infer<typeof LinkedIdentity>;
export const LinkedIdentityList = z.object({ results: z.array(LinkedIdentity) });

/** A staff action: this person is that identity (they showed their student card, say). */
export const LinkIdentityRequest = z.strictObject({
  provider_id: z.number().int().min(1).max(2_147_483_647),
  external_id: str().trim().min(1).max(500),
  institutional_id: str().trim().min(1).max(200).optional(),
});
export const IdentityParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  identity_id: z.coerce.number().int().min(1).max(2_147_483_647),
});

/** Logout's answer: where to send the browser to end the IdP session too (SAML SLO), or null. */
export const LogoutResponse = z.object({
  detail: z.string(),
  sso_logout_url: z.string().nullable().default(null),
});
