import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { HttpError } from '../../lib/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { AGS_SCOPE, NRPS_SCOPE } from './claims.ts';
import { callPlatformJson, PlatformError } from './platform-http.ts';
import { peekRegistrationToken, takeRegistrationToken } from './platforms.repo.ts';
import { createPlatform, toolUrls } from './platforms.service.ts';

/*
 * LTI Dynamic Registration 1.0: the LMS administrator opens Kadai's one-time registration address (made
 * by staff) from the LMS, which adds `openid_configuration` and `registration_token`. Kadai reads the
 * platform's configuration, registers itself at its registration endpoint and keeps the answer as a
 * platform registration; the page then asks the LMS to close it (`org.imsglobal.lti.close`).
 */

const LTI_PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const LTI_TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

const HttpsUrl = z
  .string()
  .max(2000)
  .refine((v) => /^https?:\/\//i.test(v), 'Not an http(s) URL.');
const PlatformConfiguration = z.object({
  issuer: HttpsUrl,
  authorization_endpoint: HttpsUrl,
  token_endpoint: HttpsUrl,
  jwks_uri: HttpsUrl,
  registration_endpoint: HttpsUrl,
  scopes_supported: z.array(z.string().max(500)).max(100).optional(),
  [LTI_PLATFORM_CONFIGURATION]: z
    .object({ product_family_code: z.string().max(100).optional(), version: z.string().max(100).optional() })
    .optional(),
});
const RegistrationAnswer = z.object({
  client_id: z.string().min(1).max(255),
  [LTI_TOOL_CONFIGURATION]: z.object({ deployment_id: z.string().min(1).max(255).optional() }).optional(),
});

const refused = (detail: string) => new HttpError(400, 'registration_refused', detail);
const expired = () =>
  new HttpError(
    410,
    'registration_expired',
    'This registration address has expired or was used. Ask for a new one.',
  );

export interface RegistrationQuery {
  token?: string;
  openid_configuration?: string;
  registration_token?: string;
}

export async function registerDynamically(
  ctx: AppContext,
  query: RegistrationQuery,
): Promise<{ platform: string }> {
  if (!query.token || !(await peekRegistrationToken(ctx.db, hashToken(query.token)))) throw expired();
  if (!query.openid_configuration) throw refused('The LMS sent no openid_configuration.');
  let configuration: z.infer<typeof PlatformConfiguration>;
  try {
    const parsed = PlatformConfiguration.safeParse(await callPlatformJson(query.openid_configuration));
    if (!parsed.success) throw refused('The LMS configuration lacks issuer, endpoints or JWKS.');
    configuration = parsed.data;
  } catch (error) {
    if (error instanceof PlatformError) throw new HttpError(502, 'platform_unreachable', error.message);
    throw error;
  }
  // Dynamic Registration §3.5.1: the configuration must come from the issuer's own site.
  if (new URL(configuration.issuer).host !== new URL(query.openid_configuration).host) {
    throw refused('The LMS configuration names an issuer on another site.');
  }
  const urls = toolUrls(ctx);
  const supported = configuration.scopes_supported;
  const scopes = [AGS_SCOPE.lineItem, AGS_SCOPE.lineItemReadOnly, AGS_SCOPE.score, NRPS_SCOPE].filter(
    (s) => !supported || supported.includes(s),
  );
  const body = {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: urls.login_url,
    redirect_uris: [urls.launch_url],
    client_name: 'Kadai',
    jwks_uri: urls.jwks_url,
    logo_uri: `${ctx.config.publicUrl}/favicon.svg`,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: scopes.join(' '),
    [LTI_TOOL_CONFIGURATION]: {
      domain: new URL(ctx.config.publicUrl).host,
      target_link_uri: urls.launch_url,
      description: 'Python assignments graded in a sandbox, quizzes and more.',
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: urls.launch_url, label: 'Kadai' },
        { type: 'LtiDeepLinkingRequest', target_link_uri: urls.launch_url, label: 'Kadai' },
      ],
    },
  };
  let answer: z.infer<typeof RegistrationAnswer>;
  try {
    const parsed = RegistrationAnswer.safeParse(
      await callPlatformJson(configuration.registration_endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(query.registration_token ? { authorization: `Bearer ${query.registration_token}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
    if (!parsed.success) throw refused('The LMS answered the registration without a client_id.');
    answer = parsed.data;
  } catch (error) {
    if (error instanceof PlatformError) throw new HttpError(502, 'platform_unreachable', error.message);
    throw error;
  }
  if (!(await takeRegistrationToken(ctx.db, hashToken(query.token)))) throw expired();
  const product = configuration[LTI_PLATFORM_CONFIGURATION]?.product_family_code ?? '';
  const deployment = answer[LTI_TOOL_CONFIGURATION]?.deployment_id;
  const name = `${product || new URL(configuration.issuer).host}`;
  const platform = await createPlatform(
    ctx,
    {
      name,
      issuer: configuration.issuer,
      client_id: answer.client_id,
      auth_url: configuration.authorization_endpoint,
      token_url: configuration.token_endpoint,
      jwks_url: configuration.jwks_uri,
      // Canvas makes the deployment when the tool is installed: the first signed launch names it.
      deployment_ids: deployment ? [deployment] : [],
    },
    'dynamic',
    product,
  );
  return { platform: platform.name };
}
