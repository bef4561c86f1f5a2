import { z } from 'zod';
import type { LtiRosterSyncResult } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { cleanText, emailOrNull } from '../../lib/outside-text.ts';
import { deleteMembers, insertMembers } from '../courses/members.service.ts';
import { findUserByEmail, insertUser } from '../users/users.service.ts';
import { kadaiRoles, NRPS_SCOPE } from './claims.ts';
import { placeholderEmail } from './landing.service.ts';
import { findContext, linkLtiUser, mapLtiUsers, setRosterSynced } from './launch.repo.ts';
import { listLinkedMembers } from './roster.repo.ts';
import { PlatformError, platformPages } from './platform-http.ts';
import { platformToken } from './platform-token.ts';
import { findPlatformRow } from './platforms.repo.ts';

/*
 * Names and Role Provisioning (NRPS 2.0, docs/lti.md "Roster"): the LMS course's members, page by page,
 * made members of the linked Kadai course. People of the LMS are found by their `sub`; new ones get an
 * account (never one joined to an existing account by e-mail: those wait for their first launch, where
 * they prove the account is theirs). Removed is whoever this platform put in the course and the LMS no
 * longer lists as active; they lose access and keep their work. People added in Kadai by hand stay.
 */

const MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const MAX_PAGES = 100;

const Member = z.object({
  user_id: z.string().min(1).max(255),
  status: z.enum(['Active', 'Inactive', 'Deleted']).optional(),
  roles: z.array(z.string().max(500)).max(200),
  name: z.string().max(300).optional(),
  given_name: z.string().max(150).optional(),
  family_name: z.string().max(150).optional(),
  email: z.string().max(254).optional(),
});
const Container = z.object({ members: z.array(z.unknown()).max(10_000) });
type Member = z.infer<typeof Member>;

async function fetchMembers(
  ctx: AppContext,
  platform: NonNullable<Awaited<ReturnType<typeof findPlatformRow>>>,
  url: string,
) {
  const members: Member[] = [];
  const headers = async () => ({
    authorization: `Bearer ${await platformToken(ctx, platform, [NRPS_SCOPE])}`,
    accept: MEDIA_TYPE,
  });
  for await (const page of platformPages(url, headers, MAX_PAGES)) {
    const container = Container.safeParse(page);
    if (!container.success) throw new PlatformError('The membership container has no members list.', null);
    // A malformed member is skipped, not the whole roster.
    for (const raw of container.data.members) {
      const member = Member.safeParse(raw);
      if (member.success) members.push(member.data);
    }
  }
  return members;
}

/** Syncs the Kadai course of an LMS course with the LMS's membership list. */
export async function syncRoster(ctx: AppContext, contextRowId: number): Promise<LtiRosterSyncResult> {
  const context = await findContext(ctx.db, contextRowId);
  const platform = context && (await findPlatformRow(ctx.db, context.platformId));
  const result = { added: 0, removed: 0, unchanged: 0, waiting: 0 };
  if (!context?.courseId || !context.membershipsUrl || !platform) return result;
  const courseId = context.courseId;
  let members: Member[];
  try {
    members = await fetchMembers(ctx, platform, context.membershipsUrl);
  } catch (error) {
    if (error instanceof PlatformError)
      await setRosterSynced(ctx.db, context.id, error.message.slice(0, 500));
    throw error;
  }
  await ctx.db.transaction(async (tx) => {
    const known = await mapLtiUsers(
      tx,
      platform.id,
      members.map((m) => m.user_id),
    );
    const listed = new Set<number>();
    for (const member of members) {
      const role = kadaiRoles(member.roles, false).course;
      if (!role || (member.status ?? 'Active') !== 'Active') continue;
      let userId = known.get(member.user_id);
      if (userId === undefined) {
        const email = emailOrNull(member.email);
        if (email && (await findUserByEmail(tx, email))) {
          result.waiting++;
          continue;
        }
        const user = await insertUser(tx, {
          email: email ?? placeholderEmail(platform.id, member.user_id),
          firstName: cleanText(member.given_name, 150),
          lastName: cleanText(member.family_name, 150),
          roles: role === 'editor' ? ['instructor'] : ['student'],
          emailVerifiedAt: email ? new Date() : null,
        });
        if (!user) {
          result.waiting++;
          continue;
        }
        userId = await linkLtiUser(tx, {
          platformId: platform.id,
          sub: member.user_id,
          userId: user.id,
          email,
        });
      }
      listed.add(userId);
      const added = await insertMembers(tx, role, courseId, [userId]);
      if (added.length > 0) result.added++;
      else result.unchanged++;
    }
    // Whoever this platform knows and the course has, but the LMS no longer lists as active.
    for (const member of await listLinkedMembers(tx, platform.id, courseId)) {
      if (listed.has(member.userId)) continue;
      result.removed += await deleteMembers(tx, member.kind, courseId, [member.userId]);
    }
    await setRosterSynced(tx, context.id, null);
  });
  return result;
}
