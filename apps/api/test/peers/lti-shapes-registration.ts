import { z } from 'zod';
import { PLATFORM_CONFIGURATION, TOOL_CONFIGURATION, includes, url } from './lti-shapes-base.ts';

/* The OIDC login messages (SEC §5.1.1) and LTI Dynamic Registration (DR). */

/** SEC §5.1.1.1 Third-party initiated login: the parameters the platform sends to the login URL. */
export const ThirdPartyLoginInitiation = z.looseObject({
  iss: url,
  login_hint: z.string().min(1),
  target_link_uri: url,
  lti_message_hint: z.string().optional(),
  lti_deployment_id: z.string().optional(),
  client_id: z.string().optional(),
});

/** SEC §5.1.1.2 Authentication request: what the tool sends to the platform's authorization URL. */
export const OidcAuthenticationRequest = z.looseObject({
  scope: z.string().refine((scope) => scope.split(' ').includes('openid'), 'scope must contain openid'),
  response_type: z.literal('id_token'),
  client_id: z.string().min(1),
  redirect_uri: url,
  login_hint: z.string().min(1),
  /** RECOMMENDED (not REQUIRED) in SEC §5.1.1.2, for CSRF mitigation. */
  state: z.string().min(1).optional(),
  response_mode: z.literal('form_post'),
  nonce: z.string().min(1),
  prompt: z.literal('none'),
  lti_message_hint: z.string().optional(),
});

/** DR "LTI Message" entries of the tool configuration. */
const ToolMessage = z.looseObject({
  type: z.string().min(1),
  target_link_uri: url.optional(),
  label: z.string().optional(),
  icon_uri: url.optional(),
  custom_parameters: z.record(z.string(), z.string()).optional(),
  placements: z.array(z.string()).optional(),
  roles: z.array(z.string()).optional(),
});

/**
 * DR "LTI Configuration" (`https://purl.imsglobal.org/spec/lti-tool-configuration`) of the tool:
 * domain (without the protocol), target_link_uri, messages and claims required.
 */
export const LtiToolConfiguration = z.looseObject({
  domain: z
    .string()
    .min(1)
    .refine((domain) => !domain.includes('://'), 'domain must not include the protocol'),
  secondary_domains: z.array(z.string()).optional(),
  deployment_id: z.string().optional(),
  target_link_uri: url,
  custom_parameters: z.record(z.string(), z.string()).optional(),
  description: z.string().optional(),
  messages: z.array(ToolMessage),
  claims: z.array(z.string()),
});

/**
 * DR "Tool Registration Request" (OpenID Connect Dynamic Client Registration with LTI's profile):
 * a web application using the implicit flow for launches and client credentials for services,
 * authenticating at the token endpoint with private_key_jwt.
 */
export const ToolRegistrationRequest = z.looseObject({
  application_type: z.literal('web'),
  response_types: z.array(z.string()).refine(includes('id_token'), 'response_types must include id_token'),
  grant_types: z
    .array(z.string())
    .refine(includes('implicit'), 'grant_types must include implicit')
    .refine(includes('client_credentials'), 'grant_types must include client_credentials'),
  initiate_login_uri: url,
  redirect_uris: z.array(url).min(1),
  client_name: z.string().min(1),
  jwks_uri: url,
  logo_uri: url.optional(),
  token_endpoint_auth_method: z.literal('private_key_jwt'),
  contacts: z.array(z.string()).optional(),
  client_uri: url.optional(),
  tos_uri: url.optional(),
  policy_uri: url.optional(),
  /** RFC 7591 space-separated scopes; DR: the platform should grant no service the tool did not ask for. */
  scope: z.string(),
  [TOOL_CONFIGURATION]: LtiToolConfiguration,
});
export type ToolRegistrationRequest = z.infer<typeof ToolRegistrationRequest>;

/** DR "Tool Registration Response": the registration echoed with the client_id and a deployment_id. */
export const ToolRegistrationResponse = ToolRegistrationRequest.extend({
  client_id: z.string().min(1),
  [TOOL_CONFIGURATION]: LtiToolConfiguration.extend({ deployment_id: z.string().min(1) }),
});
export type ToolRegistrationResponse = z.infer<typeof ToolRegistrationResponse>;

/** DR "Platform OpenID Configuration", with the LTI platform configuration in it. */
export const PlatformOpenIdConfiguration = z.looseObject({
  issuer: url,
  authorization_endpoint: url,
  registration_endpoint: url,
  jwks_uri: url,
  token_endpoint: url,
  token_endpoint_auth_methods_supported: z.array(z.string()).refine(includes('private_key_jwt')),
  token_endpoint_auth_signing_alg_values_supported: z.array(z.string()).refine(includes('RS256')),
  scopes_supported: z.array(z.string()).refine(includes('openid')),
  response_types_supported: z.array(z.string()).refine(includes('id_token')),
  id_token_signing_alg_values_supported: z.array(z.string()).refine(includes('RS256')),
  claims_supported: z.array(z.string()),
  subject_types_supported: z.array(z.string()),
  authorization_server: z.string().optional(),
  [PLATFORM_CONFIGURATION]: z.looseObject({
    product_family_code: z.string().min(1),
    version: z.string().min(1),
    messages_supported: z.array(
      z.looseObject({ type: z.string(), placements: z.array(z.string()).optional() }),
    ),
    variables: z.array(z.string()).optional(),
  }),
});
export type PlatformOpenIdConfiguration = z.infer<typeof PlatformOpenIdConfiguration>;
