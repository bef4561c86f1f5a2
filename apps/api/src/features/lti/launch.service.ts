import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AppContext } from '../../lib/context.ts';
import { LaunchClaims, LTI, type LaunchClaims as Claims } from './claims.ts';
import { LtiFailure } from './failure.ts';
import { resolveLaunch } from './landing.service.ts';
import { platformKeys } from './platform-http.ts';
import {
  findPlatformRowsByIssuer,
  findPlatformRow,
  updatePlatformRow,
  type PlatformRow,
} from './platforms.repo.ts';
import { toolUrls } from './platforms.service.ts';
import { insertLaunchState, pruneExpiredLaunches, rememberNonce, takeLaunchState } from './launch.repo.ts';

/*
 * The launch (LTI Core 1.3 §5.1.1, Security Framework §5.1): the platform's third-party login initiation,
 * out to its authorization endpoint with a state and nonce kept in the database, and back with an
 * id_token posted to `/api/Lti/launch/`, verified with jose against the platform's JWKS (signature,
 * issuer, audience, expiry), then its nonce (once), deployment and claims.
 */

const STATE_SECONDS = 10 * 60;
/** A platform's clock may be a little ahead or behind. */
const CLOCK_TOLERANCE_SECONDS = 60;

export interface LoginParams {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
}

async function platformOf(
  ctx: AppContext,
  issuer: string,
  clientId: string | undefined,
): Promise<PlatformRow> {
  const rows = (await findPlatformRowsByIssuer(ctx.db, issuer.replace(/\/+$/, ''))).filter(
    (p) => clientId === undefined || p.clientId === clientId,
  );
  if (rows.length !== 1) {
    throw new LtiFailure(
      'unknown_platform',
      `No single registration for ${issuer} (client ${clientId ?? 'not given'}).`,
    );
  }
  const platform = rows[0]!;
  if (!platform.enabled) throw new LtiFailure('disabled', `Platform ${platform.id} is disabled.`);
  return platform;
}

/** `GET|POST /api/Lti/login/`: where to send the browser (the platform's authorization endpoint). */
export async function startLogin(ctx: AppContext, params: LoginParams): Promise<string> {
  if (!params.iss || !params.login_hint || !params.target_link_uri) {
    throw new LtiFailure('invalid', 'The login initiation lacks iss, login_hint or target_link_uri.');
  }
  const platform = await platformOf(ctx, params.iss, params.client_id);
  if (
    params.lti_deployment_id &&
    platform.deploymentIds.length > 0 &&
    !platform.deploymentIds.includes(params.lti_deployment_id)
  ) {
    throw new LtiFailure('unknown_platform', `Deployment ${params.lti_deployment_id} is not registered.`);
  }
  await pruneExpiredLaunches(ctx.db);
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  await insertLaunchState(ctx.db, {
    state,
    nonce,
    platformId: platform.id,
    expiresAt: new Date(Date.now() + STATE_SECONDS * 1000),
  });
  const target = new URL(platform.authUrl);
  const query = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: toolUrls(ctx).launch_url,
    login_hint: params.login_hint,
    state,
    nonce,
    ...(params.lti_message_hint ? { lti_message_hint: params.lti_message_hint } : {}),
  };
  for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
  return target.href;
}

/** The id_token's claims once jose has checked its signature, issuer, audience and lifetime. */
async function verifyIdToken(platform: PlatformRow, idToken: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, platformKeys(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      algorithms: ['RS256', 'RS384', 'RS512', 'ES256', 'PS256'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
    });
    // Security Framework §5.1.3 (5): with several audiences, azp names this tool.
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (audiences.length > 1 && payload.azp !== platform.clientId) {
      throw new LtiFailure('invalid', `azp ${String(payload.azp)} is not ${platform.clientId}.`);
    }
    return payload;
  } catch (error) {
    if (error instanceof LtiFailure) throw error;
    if (error instanceof joseErrors.JWTExpired)
      throw new LtiFailure('expired', `id_token expired: ${error.message}`);
    if (error instanceof joseErrors.JWKSTimeout)
      throw new LtiFailure('unreachable', 'The platform JWKS timed out.');
    if (error instanceof joseErrors.JOSEError)
      throw new LtiFailure('invalid', `id_token refused: ${error.code} ${error.message}`);
    // A JWKS that cannot be fetched (connection refused, not JSON).
    throw new LtiFailure('unreachable', `The platform JWKS could not be read: ${(error as Error).message}`);
  }
}

function claimsOf(payload: JWTPayload): Claims {
  const parsed = LaunchClaims.safeParse(payload);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new LtiFailure('invalid', `The id_token's LTI claims are not valid: ${where}`);
  }
  return parsed.data;
}

/** `POST /api/Lti/launch/`: the id_token, checked, and where the page goes next. */
export async function finishLaunch(
  ctx: AppContext,
  form: { id_token?: string; state?: string },
): Promise<string> {
  if (!form.id_token || !form.state) throw new LtiFailure('invalid', 'The launch lacks id_token or state.');
  const request = await takeLaunchState(ctx.db, form.state);
  if (!request) throw new LtiFailure('expired', 'Unknown, used or expired state.');
  const platform = await findPlatformRow(ctx.db, request.platformId);
  if (!platform) throw new LtiFailure('unknown_platform', 'The platform of this launch is gone.');
  if (!platform.enabled) throw new LtiFailure('disabled', `Platform ${platform.id} is disabled.`);
  const payload = await verifyIdToken(platform, form.id_token);
  if (payload.nonce !== request.nonce)
    throw new LtiFailure('invalid', 'The nonce is not the one this launch sent.');
  const claims = claimsOf(payload);
  const deployment = claims[`${LTI}deployment_id`];
  if (platform.deploymentIds.length === 0) {
    // A registration made without a deployment (docs/lti.md): the first launch signed by the platform's
    // own key names it.
    await updatePlatformRow(ctx.db, platform.id, { deploymentIds: [deployment] });
  } else if (!platform.deploymentIds.includes(deployment)) {
    throw new LtiFailure(
      'unknown_platform',
      `Deployment ${deployment} is not registered for platform ${platform.id}.`,
    );
  }
  const expiresAt = new Date(((payload.exp ?? 0) + CLOCK_TOLERANCE_SECONDS) * 1000);
  if (!(await rememberNonce(ctx.db, platform.id, claims.nonce, expiresAt))) {
    throw new LtiFailure('expired', 'This id_token was used already (a replay).');
  }
  return resolveLaunch(ctx, platform, claims);
}
