import { createRemoteJWKSet } from 'jose';
import {
  mediaType,
  randomToken,
  readBody,
  sendJson,
  sendOAuthError,
  violation,
  type Exchange,
  type PlatformCore,
  type ToolRecord,
} from './lti-platform-core.ts';
import {
  PLATFORM_CONFIGURATION,
  SCOPE,
  TOOL_CONFIGURATION,
  ToolRegistrationRequest,
  describeIssues,
  type PlatformOpenIdConfiguration,
  type ToolRegistrationResponse,
} from './lti-shapes.ts';

/*
 * How a tool comes to be known: configured by hand (what an LMS admin types in: client_id,
 * deployment, login URL, redirect URIs, JWKS URL) or by LTI Dynamic Registration (DR), where the
 * admin's browser opens the tool's registration URL with `openid_configuration` and
 * `registration_token`, and the tool posts its registration to the platform's registration_endpoint.
 */

export interface LtiToolConfig {
  clientId: string;
  deploymentId: string;
  /** The tool's OIDC login initiation URL (DR `initiate_login_uri`). */
  loginUrl: string;
  redirectUris: string[];
  jwksUrl: string;
  /** The default launch URL; the first redirect URI when left out. */
  targetLinkUri?: string;
  /** Where deep linking requests go (an LMS's "content selection URL"); targetLinkUri when left out. */
  deepLinkingUrl?: string;
  /** The AGS and NRPS scopes granted; all of them when left out. */
  scopes?: string[];
}

export const ALL_SCOPES: string[] = Object.values(SCOPE);

export function addTool(core: PlatformCore, config: LtiToolConfig): ToolRecord {
  const existing = core.tools.get(config.clientId);
  const targetLinkUri = config.targetLinkUri ?? config.redirectUris[0];
  if (!targetLinkUri) throw new Error('configureTool: give at least one redirect URI');
  const tool: ToolRecord = {
    clientId: config.clientId,
    deploymentIds: [...new Set([...(existing?.deploymentIds ?? []), config.deploymentId])],
    loginUrl: config.loginUrl,
    redirectUris: config.redirectUris,
    jwksUrl: config.jwksUrl,
    targetLinkUri,
    deepLinkingUrl: config.deepLinkingUrl ?? targetLinkUri,
    scopes: config.scopes ?? ALL_SCOPES,
    // An LMS caches a tool's keys but fetches them again for a kid it has not seen (a rotation).
    keys: createRemoteJWKSet(new URL(config.jwksUrl), { cooldownDuration: 0 }),
  };
  core.tools.set(tool.clientId, tool);
  return tool;
}

export function openIdConfiguration(core: PlatformCore): PlatformOpenIdConfiguration {
  return {
    issuer: core.issuer,
    authorization_endpoint: `${core.issuer}/auth`,
    registration_endpoint: `${core.issuer}/register`,
    jwks_uri: `${core.issuer}/jwks`,
    token_endpoint: core.tokenUrl,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid', ...ALL_SCOPES],
    response_types_supported: ['id_token'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: ['iss', 'sub', 'aud', 'name', 'given_name', 'family_name', 'email'],
    subject_types_supported: ['public'],
    authorization_server: core.tokenUrl,
    [PLATFORM_CONFIGURATION]: {
      product_family_code: core.productFamilyCode,
      version: '1.0',
      messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
      variables: [],
    },
  };
}

/** DR "Registration Initiation Launch": the tool's URL with the two parameters, and a fresh token. */
export function dynamicRegistrationUrl(core: PlatformCore, toolRegistrationUrl: string): string {
  const token = randomToken();
  core.registrationTokens.set(token, false);
  const target = new URL(toolRegistrationUrl);
  target.searchParams.set('openid_configuration', `${core.issuer}/.well-known/openid-configuration`);
  target.searchParams.set('registration_token', token);
  return target.href;
}

/**
 * DR "Tool Registration Request"/"Response": the registration token as a Bearer credential (good
 * once) and the body checked against ToolRegistrationRequest.
 * The answer echoes the registration with a client_id and a deployment_id, as DR shows; the status
 * is 200, which LMSs send (RFC 7591 §3.2.1 says 201: a tool takes either).
 */
export async function registrationEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const { req, res } = exchange;
  const where = 'dynamic registration';
  const refuse = (status: number, error: string, description: string) => {
    violation(core, where, description);
    sendOAuthError(res, status, error, description);
  };
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !core.registrationTokens.has(token)) {
    return refuse(401, 'invalid_token', 'no registration_token this platform issued as Bearer credential');
  }
  if (core.registrationTokens.get(token))
    return refuse(401, 'invalid_token', 'the registration_token was used');
  if (mediaType(req) !== 'application/json') {
    return refuse(400, 'invalid_client_metadata', `content type ${JSON.stringify(mediaType(req))}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return refuse(400, 'invalid_client_metadata', 'the body is not JSON');
  }
  const parsed = ToolRegistrationRequest.safeParse(body);
  if (!parsed.success) return refuse(400, 'invalid_client_metadata', describeIssues(parsed.error).join('; '));
  const request = parsed.data;
  const configuration = request[TOOL_CONFIGURATION];
  core.registrationTokens.set(token, true);

  const clientId = randomToken();
  const deploymentId = randomToken();
  const requested = request.scope.split(' ').filter(Boolean);
  const deepLinking = configuration.messages.find((message) => message.type === 'LtiDeepLinkingRequest');
  addTool(core, {
    clientId,
    deploymentId,
    loginUrl: request.initiate_login_uri,
    redirectUris: request.redirect_uris,
    jwksUrl: request.jwks_uri,
    targetLinkUri: configuration.target_link_uri,
    deepLinkingUrl: deepLinking?.target_link_uri ?? configuration.target_link_uri,
    scopes: ALL_SCOPES.filter((scope) => requested.includes(scope)),
  });
  core.registrations.push({ clientId, deploymentId, request });
  const response: ToolRegistrationResponse = {
    ...request,
    client_id: clientId,
    scope: ALL_SCOPES.filter((scope) => requested.includes(scope)).join(' '),
    [TOOL_CONFIGURATION]: { ...configuration, deployment_id: deploymentId },
  };
  sendJson(res, 200, response);
}
