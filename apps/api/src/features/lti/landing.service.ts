import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { cleanText, emailOrNull } from '../../lib/outside-text.ts';
import { hashToken } from '../auth/tokens.ts';
import { listCourseWork } from '../assessment/gradebook.service.ts';
import { insertMembers } from '../courses/members.service.ts';
import { findUserByEmail, findUserById, insertUser, setStaff } from '../users/users.service.ts';
import { AGS_CLAIM, DL, kadaiRoles, LTI, NRPS_CLAIM, type LaunchClaims } from './claims.ts';
import { LtiFailure } from './failure.ts';
import { columnOf, parseItemRef, type KadaiItem } from './items.ts';
import { recordLineItem } from './grades.repo.ts';
import {
  findLtiUser,
  insertDeepLink,
  insertLtiCode,
  linkLtiUser,
  recordContextMember,
  upsertContext,
  type ContextRow,
} from './launch.repo.ts';
import type { PlatformRow } from './platforms.repo.ts';

/*
 * Who launched and where they go (docs/lti.md, "What a launch does"). The platform's `sub` is the key;
 * an existing Kadai account with the same e-mail is linked only with its password (a `link` code, as
 * for institutional sign-in), never on the platform's word alone. Everything happens in one
 * transaction: a refused launch creates nothing.
 */

const CODE_SECONDS = { sign_in: 120, link: 10 * 60 } as const;
const DEEP_LINK_SECONDS = 60 * 60;

/** What a launch means, kept with a code (JSON) until the page exchanges it. */
export interface LaunchFacts {
  sub: string;
  email: string | null;
  firstName: string;
  lastName: string;
  course: 'editor' | 'student' | null;
  staff: boolean;
  deploymentId: string;
  messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  context: { id: string; title: string; label: string } | null;
  item: KadaiItem | null;
  ags: { lineItems: string | null; lineItem: string | null; scopes: string[] } | null;
  memberships: string | null;
  deepLinking: Record<string, unknown> | null;
}

/** The platform's own sites: where the service addresses of its launches may point. */
function platformOrigins(platform: PlatformRow): Set<string> {
  return new Set([
    ...[platform.issuer, platform.authUrl, platform.tokenUrl, platform.jwksUrl].map((u) => new URL(u).origin),
    ...platform.frameOrigins,
  ]);
}

/**
 * A service address of the launch (line items, memberships), kept only when it is on one of the
 * platform's own sites: Kadai calls it with a token, and a compromised LMS must not aim those calls at
 * an address inside Kadai's network.
 */
function onSites(origins: Set<string>, url: string | undefined): string | null {
  if (!url) return null;
  try {
    return origins.has(new URL(url).origin) ? url : null;
  } catch {
    return null;
  }
}

export function factsOf(platform: PlatformRow, claims: LaunchClaims): LaunchFacts {
  const context = claims[`${LTI}context`];
  const ags = claims[AGS_CLAIM];
  const origins = platformOrigins(platform);
  const custom = claims[`${LTI}custom`];
  const display = cleanText(claims.name, 300).split(/\s+/).filter(Boolean);
  return {
    sub: claims.sub,
    email: emailOrNull(claims.email),
    firstName: cleanText(claims.given_name, 150) || display.slice(0, -1).join(' '),
    lastName: cleanText(claims.family_name, 150) || (display.at(-1) ?? ''),
    ...kadaiRoles(claims[`${LTI}roles`], platform.allowStaff),
    deploymentId: claims[`${LTI}deployment_id`],
    messageType: claims[`${LTI}message_type`],
    context: context
      ? { id: context.id, title: cleanText(context.title, 200), label: cleanText(context.label, 100) }
      : null,
    item: typeof custom?.kadai_item === 'string' ? parseItemRef(custom.kadai_item) : null,
    ags: ags
      ? {
          lineItems: onSites(origins, ags.lineitems),
          lineItem: onSites(origins, ags.lineitem),
          scopes: ags.scope ?? [],
        }
      : null,
    memberships: onSites(origins, claims[NRPS_CLAIM]?.context_memberships_url),
    deepLinking: claims[`${DL}deep_linking_settings`] ?? null,
  };
}

/** A person without an e-mail from the LMS (privacy settings) still needs a unique, unusable address. */
export function placeholderEmail(platformId: number, sub: string): string {
  return `${createHash('sha256').update(sub).digest('hex').slice(0, 20)}.${platformId}@lti.invalid`;
}

async function newCode(
  tx: Executor,
  purpose: 'sign_in' | 'link',
  platformId: number,
  userId: number,
  payload: object,
) {
  const code = randomBytes(32).toString('base64url');
  await insertLtiCode(tx, {
    codeHash: hashToken(code),
    purpose,
    platformId,
    userId,
    payload,
    expiresAt: new Date(Date.now() + CODE_SECONDS[purpose] * 1000),
  });
  return code;
}

/** The Kadai page for a launched item of the course, or the course home. */
async function itemPath(db: Executor, courseId: number, item: KadaiItem | null): Promise<string | null> {
  const column = item && columnOf(await listCourseWork(db, courseId), item);
  if (!item || !column) return null;
  return item.kind === 'assignment'
    ? `/course/${courseId}/assignment/${item.id}`
    : `/course/${courseId}/quizzes/${column.itemId}/quiz-courses/${item.id}`;
}

/**
 * What the launch does for a known account (also after a link): staff, the LMS course, membership of
 * its Kadai course, the line item; returns the page to open.
 */
export async function applyLaunch(
  tx: Executor,
  platform: PlatformRow,
  userId: number,
  facts: LaunchFacts,
): Promise<string> {
  if (facts.staff) await setStaff(tx, userId);
  let context: ContextRow | null = null;
  if (facts.context) {
    context = await upsertContext(tx, {
      platformId: platform.id,
      deploymentId: facts.deploymentId,
      contextId: facts.context.id,
      title: facts.context.title,
      label: facts.context.label,
      lineItemsUrl: facts.ags?.lineItems ?? null,
      agsScopes: facts.ags?.scopes ?? [],
      membershipsUrl: facts.memberships,
    });
    if (facts.course) {
      await recordContextMember(tx, context.id, userId, facts.course === 'editor' ? 'instructor' : 'learner');
    }
    if (context.courseId && facts.course) await insertMembers(tx, facts.course, context.courseId, [userId]);
  }
  if (facts.messageType === 'LtiDeepLinkingRequest') {
    if (facts.course !== 'editor' && !facts.staff) {
      throw new LtiFailure('invalid', 'Only instructors can choose content (deep linking).');
    }
    const id = randomBytes(18).toString('base64url');
    await insertDeepLink(tx, {
      id,
      platformId: platform.id,
      userId,
      contextRowId: context?.id ?? null,
      deploymentId: facts.deploymentId,
      settings: facts.deepLinking ?? {},
      expiresAt: new Date(Date.now() + DEEP_LINK_SECONDS * 1000),
    });
    return `/lti/deep-link/${id}`;
  }
  if (!context) return '/course';
  if (!context.courseId) {
    if (facts.course === 'editor' || facts.staff) return `/lti/context/${context.id}`;
    throw new LtiFailure('not_ready', `LMS course ${context.id} is not linked to a Kadai course yet.`);
  }
  const path = await itemPath(tx, context.courseId, facts.item);
  if (path && facts.item && facts.ags?.lineItem) {
    await recordLineItem(tx, {
      contextRowId: context.id,
      kind: facts.item.kind,
      itemId: facts.item.id,
      url: facts.ags.lineItem,
    });
  }
  return path ?? `/course/${context.courseId}`;
}

/**
 * The account of the person who launched: the one linked to their `sub`, else a new one; `mustProve`
 * when it is an existing account of their e-mail, which they must prove is theirs before it is linked.
 */
async function accountOf(
  tx: Executor,
  platform: PlatformRow,
  facts: LaunchFacts,
): Promise<{ userId: number; mustProve: boolean }> {
  const linked = await findLtiUser(tx, platform.id, facts.sub);
  if (linked) {
    const user = await findUserById(tx, linked.userId);
    if (!user?.isActive) throw new LtiFailure('inactive', `Account ${linked.userId} is deactivated.`);
    return { userId: user.id, mustProve: false };
  }
  const existing = facts.email ? await findUserByEmail(tx, facts.email) : null;
  if (existing) {
    if (!existing.isActive) throw new LtiFailure('inactive', `Account ${existing.id} is deactivated.`);
    return { userId: existing.id, mustProve: true };
  }
  const user = await insertUser(tx, {
    email: facts.email ?? placeholderEmail(platform.id, facts.sub),
    firstName: facts.firstName,
    lastName: facts.lastName,
    roles: facts.course === 'editor' ? ['instructor'] : ['student'],
    emailVerifiedAt: facts.email ? new Date() : null,
  });
  if (!user) throw new LtiFailure('expired', `An account for ${facts.sub} was created concurrently.`);
  return { userId: user.id, mustProve: false };
}

/** Decides who launched and hands back the address of the page that continues (`/lti?code=…`). */
export async function resolveLaunch(
  ctx: AppContext,
  platform: PlatformRow,
  claims: LaunchClaims,
): Promise<string> {
  const facts = factsOf(platform, claims);
  return ctx.db.transaction(async (tx) => {
    const { userId, mustProve } = await accountOf(tx, platform, facts);
    if (mustProve) {
      return `/lti?link=${encodeURIComponent(await newCode(tx, 'link', platform.id, userId, facts))}`;
    }
    await linkLtiUser(tx, { platformId: platform.id, sub: facts.sub, userId, email: facts.email });
    const next = await applyLaunch(tx, platform, userId, facts);
    return `/lti?code=${encodeURIComponent(await newCode(tx, 'sign_in', platform.id, userId, { next }))}`;
  });
}
