import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../../test/harness.ts';
import { hashToken } from '../auth/tokens.ts';
import { listLineItemsOfContexts, recordLineItem } from './grades.repo.ts';
import {
  insertDeepLink,
  insertLtiCode,
  recordContextMember,
  setContextCourse,
  upsertContext,
} from './launch.repo.ts';
import { insertPlatformRow, type PlatformRow } from './platforms.repo.ts';

/** Test data for LTI, written straight to the database (the routes are what the tests test). */

let made = 0;
export const unique = () => `${Date.now().toString(36)}${(made++).toString(36)}`;

export async function insertPlatform(t: TestApp, fields: Partial<PlatformRow> = {}): Promise<PlatformRow> {
  const issuer = fields.issuer ?? `https://lms-${unique()}.example`;
  return (await insertPlatformRow(t.ctx.db, {
    name: 'Test LMS',
    issuer,
    clientId: 'kadai-client',
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    deploymentIds: ['1'],
    frameOrigins: [issuer],
    ...fields,
  }))!;
}

/** An LMS course of the platform, linked to `courseId` (or not), with `instructorId` launched into it. */
export async function insertContext(
  t: TestApp,
  platform: PlatformRow,
  options: { courseId?: number; instructorId?: number; membershipsUrl?: string; lineItemsUrl?: string } = {},
) {
  const context = await upsertContext(t.ctx.db, {
    platformId: platform.id,
    deploymentId: '1',
    contextId: `ctx-${unique()}`,
    title: 'LMS Algorithms',
    label: 'ALG',
    lineItemsUrl: options.lineItemsUrl ?? null,
    agsScopes: [],
    membershipsUrl: options.membershipsUrl ?? null,
  });
  if (options.courseId) await setContextCourse(t.ctx.db, context.id, options.courseId);
  if (options.instructorId)
    await recordContextMember(t.ctx.db, context.id, options.instructorId, 'instructor');
  return { ...context, courseId: options.courseId ?? null };
}

export async function insertLineItem(
  t: TestApp,
  contextRowId: number,
  kind: 'assignment' | 'quiz',
  itemId: number,
  url: string,
) {
  await recordLineItem(t.ctx.db, { contextRowId, kind, itemId, url });
  return (await listLineItemsOfContexts(t.ctx.db, [contextRowId])).find((l) => l.url === url)!;
}

/** A finished launch's one-time code for `userId`, going to `next`. */
export async function insertSignInCode(
  t: TestApp,
  platformId: number,
  userId: number,
  next = '/course',
): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  await insertLtiCode(t.ctx.db, {
    codeHash: hashToken(code),
    purpose: 'sign_in',
    platformId,
    userId,
    payload: { next },
    expiresAt: new Date(Date.now() + 60_000),
  });
  return code;
}

/** A deep-linking request of `userId` waiting in the picker. */
export async function insertDeepLinkRequest(
  t: TestApp,
  platformId: number,
  userId: number,
  contextRowId: number | null,
) {
  const id = randomBytes(18).toString('base64url');
  await insertDeepLink(t.ctx.db, {
    id,
    platformId,
    userId,
    contextRowId,
    deploymentId: '1',
    settings: {
      deep_link_return_url: 'https://lms.example/return',
      accept_types: ['ltiResourceLink'],
      accept_multiple: true,
      data: 'opaque',
    },
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return id;
}
