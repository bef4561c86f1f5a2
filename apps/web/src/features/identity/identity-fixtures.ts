import type { IdentityProvider } from '@kadai/contracts';

/** Test data: providers as the API returns them. */
export function samlProvider(fields: Partial<IdentityProvider> = {}): IdentityProvider {
  return {
    id: 1,
    slug: 'utokyo',
    kind: 'saml',
    name_ja: '東京大学',
    name_en: 'The University of Tokyo',
    email_domain: 'u-tokyo.ac.jp',
    enabled: true,
    allow_create: false,
    managed_by: 'app',
    attribute_map: {},
    saml: {
      metadata_url: 'https://idp.u-tokyo.ac.jp/metadata.xml',
      entity_id: 'https://idp.u-tokyo.ac.jp/idp/shibboleth',
      sso_url: 'https://idp.u-tokyo.ac.jp/idp/profile/SAML2/Redirect/SSO',
      slo_url: null,
      certificates: [
        {
          fingerprint_sha256: 'AB:CD:EF:01',
          subject: 'CN=idp.u-tokyo.ac.jp',
          not_after: new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString(),
        },
      ],
      id_source: 'attribute',
      metadata_fetched_at: '2026-04-01T09:00:00.000Z',
    },
    oidc: null,
    created_at: '2026-04-01T09:00:00.000Z',
    updated_at: '2026-04-01T09:00:00.000Z',
    ...fields,
  };
}

export function oidcProvider(fields: Partial<IdentityProvider> = {}): IdentityProvider {
  return {
    id: 2,
    slug: 'kyoto',
    kind: 'oidc',
    name_ja: '京都大学',
    name_en: 'Kyoto University',
    email_domain: null,
    enabled: false,
    allow_create: true,
    managed_by: 'app',
    attribute_map: {},
    saml: null,
    oidc: {
      issuer: 'https://login.kyoto-u.ac.jp',
      client_id: 'kadai',
      scopes: 'openid email',
      has_client_secret: true,
    },
    created_at: '2026-04-01T09:00:00.000Z',
    updated_at: '2026-04-01T09:00:00.000Z',
    ...fields,
  };
}
