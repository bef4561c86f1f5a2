import { randomBytes } from 'node:crypto';
import type {
  LtiPlatform,
  LtiPlatformInput,
  LtiPlatformPatch,
  LtiRegistrationLink,
  LtiToolInfo,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { UNIQUE_VIOLATION, sqlStateOf } from '../../lib/sql-state.ts';
import { hashToken } from '../auth/tokens.ts';
import { AGS_SCOPE, NRPS_SCOPE } from './claims.ts';
import { listToolKeys } from './keys.ts';
import {
  deletePlatformRow,
  findPlatformRow,
  insertPlatformRow,
  insertRegistrationToken,
  listFrameOrigins,
  listPlatformRows,
  updatePlatformRow,
  type NewPlatformRow,
  type PlatformRow,
} from './platforms.repo.ts';

/*
 * Platform registrations, kept by staff (docs/lti.md, "Registering Kadai"): entered by hand, or made by
 * the LMS through a one-time dynamic registration address staff hand to its administrator.
 */

/** Kadai's addresses a platform registers. */
export function toolUrls(ctx: AppContext) {
  const base = `${ctx.config.publicUrl}/api/Lti`;
  return {
    login_url: `${base}/login/`,
    launch_url: `${base}/launch/`,
    jwks_url: `${base}/jwks/`,
    deep_link_url: `${base}/launch/`,
    canvas_config_url: `${base}/canvas.json`,
    registration_url: `${base}/register/`,
  };
}

/** Canvas's developer key "paste JSON" configuration (docs/lti.md, "Canvas"). */
export function canvasConfiguration(ctx: AppContext): Record<string, unknown> {
  const urls = toolUrls(ctx);
  const placement = (name: string, messageType: string) => ({
    placement: name,
    message_type: messageType,
    target_link_uri: urls.launch_url,
    text: 'Kadai',
  });
  return {
    title: 'Kadai',
    description: 'Python assignments graded in a sandbox, quizzes and more.',
    oidc_initiation_url: urls.login_url,
    target_link_uri: urls.launch_url,
    public_jwk_url: urls.jwks_url,
    scopes: [AGS_SCOPE.lineItem, AGS_SCOPE.lineItemReadOnly, AGS_SCOPE.score, NRPS_SCOPE],
    extensions: [
      {
        platform: 'canvas.instructure.com',
        privacy_level: 'public',
        domain: new URL(ctx.config.publicUrl).host,
        settings: {
          placements: [
            placement('link_selection', 'LtiDeepLinkingRequest'),
            placement('assignment_selection', 'LtiDeepLinkingRequest'),
            placement('course_navigation', 'LtiResourceLinkRequest'),
          ],
        },
      },
    ],
    custom_fields: {},
  };
}

export async function getToolInfo(ctx: AppContext): Promise<LtiToolInfo> {
  const { registration_url: _registration, ...urls } = toolUrls(ctx);
  return { ...urls, keys: await listToolKeys(ctx) };
}

const originOf = (url: string) => new URL(url).origin;

/** The LMS sites that may frame Kadai: as entered, else where the issuer and its sign-in page live. */
export function defaultFrameOrigins(issuer: string, authUrl: string): string[] {
  return [...new Set([originOf(issuer), originOf(authUrl)])];
}

function toPlatform(row: PlatformRow & { contextCount?: number }): LtiPlatform {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    auth_url: row.authUrl,
    token_url: row.tokenUrl,
    jwks_url: row.jwksUrl,
    deployment_ids: row.deploymentIds,
    frame_origins: row.frameOrigins,
    allow_staff: row.allowStaff,
    enabled: row.enabled,
    source: row.source,
    product: row.product,
    context_count: row.contextCount ?? 0,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listPlatforms(ctx: AppContext): Promise<LtiPlatform[]> {
  return (await listPlatformRows(ctx.db)).map(toPlatform);
}

const taken = () =>
  conflict('This issuer and client id are registered already.', 'platform_exists', {
    client_id: ['This issuer and client id are registered already.'],
  });

/** Stored issuers have no trailing slash, as platforms put them in the `iss` claim. */
const trimmed = (url: string) => url.replace(/\/+$/, '');

function rowOf(input: LtiPlatformPatch): Partial<NewPlatformRow> {
  return {
    name: input.name,
    issuer: input.issuer === undefined ? undefined : trimmed(input.issuer),
    clientId: input.client_id,
    authUrl: input.auth_url,
    tokenUrl: input.token_url,
    jwksUrl: input.jwks_url,
    deploymentIds: input.deployment_ids && [...new Set(input.deployment_ids)],
    frameOrigins: input.frame_origins?.map(originOf),
    allowStaff: input.allow_staff,
    enabled: input.enabled,
  };
}

export async function createPlatform(
  ctx: AppContext,
  input: LtiPlatformInput,
  source: PlatformRow['source'] = 'manual',
  product = '',
): Promise<LtiPlatform> {
  const row = await insertPlatformRow(ctx.db, {
    ...rowOf(input),
    name: input.name,
    issuer: trimmed(input.issuer),
    clientId: input.client_id,
    authUrl: input.auth_url,
    tokenUrl: input.token_url,
    jwksUrl: input.jwks_url,
    frameOrigins: input.frame_origins?.length
      ? input.frame_origins.map(originOf)
      : defaultFrameOrigins(input.issuer, input.auth_url),
    source,
    product,
  });
  if (!row) throw taken();
  forgetFrameOrigins(ctx);
  return toPlatform(row);
}

export async function updatePlatform(
  ctx: AppContext,
  id: number,
  patch: LtiPlatformPatch,
): Promise<LtiPlatform> {
  const existing = await findPlatformRow(ctx.db, id);
  if (!existing) throw notFound();
  const changes = rowOf(patch);
  // An emptied list means the default: the sites of the issuer and the sign-in page.
  if (patch.frame_origins?.length === 0) {
    changes.frameOrigins = defaultFrameOrigins(
      patch.issuer ?? existing.issuer,
      patch.auth_url ?? existing.authUrl,
    );
  }
  let row: PlatformRow | null;
  try {
    row = await updatePlatformRow(ctx.db, id, changes);
  } catch (error) {
    if (sqlStateOf(error) === UNIQUE_VIOLATION) throw taken();
    throw error;
  }
  if (!row) throw notFound();
  forgetFrameOrigins(ctx);
  return toPlatform(row);
}

export async function deletePlatform(ctx: AppContext, id: number): Promise<void> {
  if (!(await deletePlatformRow(ctx.db, id))) throw notFound();
  forgetFrameOrigins(ctx);
}

const REGISTRATION_DAYS = 7;

/** A one-time dynamic registration address for an LMS administrator. */
export async function createRegistrationLink(ctx: AppContext, actor: Actor): Promise<LtiRegistrationLink> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + REGISTRATION_DAYS * 24 * 3600 * 1000);
  await insertRegistrationToken(ctx.db, { tokenHash: hashToken(token), createdBy: actor.userId, expiresAt });
  return { url: `${toolUrls(ctx).registration_url}?token=${token}`, expires_at: expiresAt.toISOString() };
}

/*
 * The frame origins for the pages' Content-Security-Policy, per database: read at most every
 * FRAME_ORIGINS_TTL_MS by each instance (a registration made on another instance shows within that),
 * at once on this one.
 */
const FRAME_ORIGINS_TTL_MS = 30_000;
const frameOriginCache = new WeakMap<object, { origins: Promise<string[]>; at: number }>();

export function forgetFrameOrigins(ctx: AppContext): void {
  frameOriginCache.delete(ctx.db);
}

export async function currentFrameOrigins(ctx: AppContext): Promise<string[]> {
  const cached = frameOriginCache.get(ctx.db);
  if (cached && Date.now() - cached.at < FRAME_ORIGINS_TTL_MS) return cached.origins;
  const origins = listFrameOrigins(ctx.db);
  frameOriginCache.set(ctx.db, { origins, at: Date.now() });
  // A database away for a moment: no frame origins now, asked again next time.
  origins.catch(() => frameOriginCache.delete(ctx.db));
  return origins;
}
