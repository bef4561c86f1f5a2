import {
  MAX_MEMBERS_LISTED,
  MAX_MEMBERS_PER_REQUEST,
  type MemberAddRequest,
  type MemberKind,
  type MemberRemoveRequest,
  type Role,
  type SetPasswordLink,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, sqlStateOf } from '../../lib/sql-state.ts';
import { createSetPasswordLink } from '../auth/set-password-link.ts';
import { invitationContext, isMailDelivered, queueEmails, writeEmails } from '../mail/outbox.ts';
import { languageOf } from '../users/users.shape.ts';
import { insertUsers, listUsersByEmails, listUsersByIds, type UserRow } from '../users/users.service.ts';
import { getCourseRole } from './courses.service.ts';
import { collectEmails } from './member-emails.ts';
import * as repo from './members.repo.ts';
import { tellOfNewMembers } from './notices.ts';
import * as pendingMembers from './pending-members.service.ts';

/** For the demo seed (apps/api/src/demo), which puts its accounts on its courses in its own transaction. */
export { deleteMembers, insertMembers } from './members.repo.ts';
/** For sign-in through an identity provider (features/identity): see pending-members.service.ts. */
export { joinPendingMemberships } from './pending-members.service.ts';

/** The roles a new account gets when it is created by being put on a list. */
export const ROLES_FOR_NEW_MEMBERS: Record<MemberKind, Role[]> = {
  student: ['student'],
  editor: ['instructor'],
};

export interface AddMembersOutcome {
  added: UserRow[];
  already: UserRow[];
  /** The link is for staff only: an editor's invitees get theirs by e-mail alone. */
  created: { user: UserRow; setPassword: SetPasswordLink | null }[];
  invalid: string[];
  unknownIds: number[];
  unknownEmails: string[];
  /** Institutional ids nobody has signed in with yet, now (or already) held on the list. */
  pending: string[];
  /** Institutional ids several accounts have signed in with. */
  ambiguous: string[];
}

/**
 * Who may touch a list: staff both lists; an editor of the course reads both and changes the student
 * list; a student of the course is refused (403); anyone else does not see the course (404).
 */
async function authorize(ctx: AppContext, actor: Actor, kind: MemberKind, courseId: number, write: boolean) {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (role === 'student') throw forbidden();
  if (role === 'editor' && write && kind === 'editor') throw forbidden();
  return role;
}

/** The list's members and its pending institutional ids, each capped at `MAX_MEMBERS_LISTED`. */
export async function listMembers(ctx: AppContext, actor: Actor, kind: MemberKind, courseId: number) {
  await authorize(ctx, actor, kind, courseId, false);
  const [members, pending] = await Promise.all([
    repo.listMembers(ctx.db, kind, courseId, MAX_MEMBERS_LISTED),
    pendingMembers.listPendingMembers(ctx.db, kind, courseId, MAX_MEMBERS_LISTED),
  ]);
  return { ...members, pending };
}

function byId(rows: UserRow[]): UserRow[] {
  const seen = new Map<number, UserRow>();
  for (const row of rows) if (!seen.has(row.id)) seen.set(row.id, row);
  return [...seen.values()];
}

/**
 * Adds people by id and by e-mail in one transaction. Unknown e-mails become new accounts (no password,
 * empty names), each with an invitation e-mail holding its set-password link, written in the same
 * transaction. Staff may always do so and get the links too; an editor only when e-mail is delivered
 * (SMTP_HOST), and the links then reach nobody but the invitees' mailboxes, so an editor never holds
 * another person's account. Otherwise an editor's unknown e-mails are only reported. An editor's ids
 * count only for people of the editor's own courses; other ids are reported unknown, like ids of
 * nobody, so ids cannot be probed. Institutional ids work like e-mails for editors and staff alike:
 * the account that signed in with one is added, and an id nobody has signed in with is held as pending.
 */
export async function addMembers(
  ctx: AppContext,
  actor: Actor,
  kind: MemberKind,
  courseId: number,
  request: MemberAddRequest,
): Promise<AddMembersOutcome> {
  const role = await authorize(ctx, actor, kind, courseId, true);
  const { emails, invalid } = collectEmails(request.emails, request.csv);
  const ids = [...new Set(request.user_ids)];
  const institutionalIds = pendingMembers.uniqueInstitutionalIds(request.institutional_ids);
  const named = ids.length + emails.length + institutionalIds.length;
  if (named > MAX_MEMBERS_PER_REQUEST) {
    throw badRequest(`At most ${MAX_MEMBERS_PER_REQUEST} people can be added in one request.`, {
      non_field_errors: [`Split the list: it names ${named} people.`],
    });
  }

  const attempt = () =>
    ctx.db.transaction(async (tx) => {
      // Editors name by id only people of their own courses (say, last year's class); staff anyone.
      const nameable = role === 'staff' ? ids : await repo.listIdsKnownToEditor(tx, actor.userId, ids);
      const foundById = await listUsersByIds(tx, nameable);
      const knownIds = new Set(foundById.map((u) => u.id));
      const foundByEmail = await listUsersByEmails(tx, emails);
      const knownEmails = new Set(foundByEmail.map((u) => u.email.toLowerCase()));
      const missing = emails.filter((e) => !knownEmails.has(e));
      const mayCreate = role === 'staff' || isMailDelivered(ctx.config);
      const created = mayCreate
        ? await insertUsers(
            tx,
            missing.map((email) => ({
              email,
              roles: [...ROLES_FOR_NEW_MEMBERS[kind]],
              passwordHash: null,
            })),
          )
        : [];
      const byInstitutionalId = await pendingMembers.resolveInstitutionalIds(
        tx,
        kind,
        courseId,
        institutionalIds,
        actor.userId,
      );
      const existing = byId([...foundById, ...foundByEmail, ...byInstitutionalId.users]);
      const inserted = new Set(
        await repo.insertMembers(
          tx,
          kind,
          courseId,
          [...existing, ...created].map((u) => u.id),
        ),
      );
      const joined = [...existing, ...created].filter((u) => inserted.has(u.id));
      await tellOfNewMembers(tx, courseId, kind, joined, actor.userId);
      const links = created.map((user) => createSetPasswordLink(ctx.config, user));
      const context = created.length > 0 ? await invitationContext(tx, courseId, actor.userId) : {};
      const emailIds = await writeEmails(
        tx,
        ctx.config,
        created.map((user, index) => ({
          kind: 'invitation' as const,
          to: user,
          link: links[index]!.url,
          lifetimeSeconds: ctx.config.SET_PASSWORD_LINK_LIFETIME,
          courseTitle: context.courseTitle,
          inviterName: context.inviterName?.(languageOf(user)),
        })),
      );
      return {
        added: existing.filter((u) => inserted.has(u.id)),
        already: existing.filter((u) => !inserted.has(u.id)),
        created: created.map((user, index) => ({
          user,
          setPassword: role === 'staff' ? links[index]! : null,
        })),
        invalid,
        unknownIds: ids.filter((id) => !knownIds.has(id)),
        unknownEmails: mayCreate ? [] : missing,
        pending: byInstitutionalId.pending,
        ambiguous: byInstitutionalId.ambiguous,
        emailIds,
      };
    });

  let outcome;
  try {
    outcome = await retryOnceOnUniqueViolation(attempt);
  } catch (error) {
    // The course was deleted while we were adding to it.
    if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) throw notFound();
    throw error;
  }
  const { emailIds, ...result } = outcome;
  await queueEmails(ctx, emailIds);
  return result;
}

/** Two requests creating the same new account at once: the loser runs again and finds the account. */
async function retryOnceOnUniqueViolation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (sqlStateOf(error) !== UNIQUE_VIOLATION) throw error;
    return run();
  }
}

/** Removes members and pending entries of the list in one transaction; says how many of each were on it. */
export async function removeMembers(
  ctx: AppContext,
  actor: Actor,
  kind: MemberKind,
  courseId: number,
  request: MemberRemoveRequest,
): Promise<{ removed: number; removedPending: number }> {
  await authorize(ctx, actor, kind, courseId, true);
  return ctx.db.transaction(async (tx) => ({
    removed: await repo.deleteMembers(tx, kind, courseId, [...new Set(request.user_ids)]),
    removedPending: await pendingMembers.deletePendingMembers(tx, kind, courseId, [
      ...new Set(request.pending_ids),
    ]),
  }));
}
