import {
  MAX_MEMBERS_LISTED,
  MAX_MEMBERS_PER_REQUEST,
  type MemberAddRequest,
  type MemberKind,
  type Role,
  type SetPasswordLink,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { createSetPasswordLink } from '../auth/set-password-link.ts';
import { insertUsers, listUsersByEmails, listUsersByIds, type UserRow } from '../users/users.repo.ts';
import { getCourseRole } from './courses.service.ts';
import { collectEmails } from './member-emails.ts';
import * as repo from './members.repo.ts';

/** The roles a new account gets when it is created by being put on a list. */
export const ROLES_FOR_NEW_MEMBERS: Record<MemberKind, Role[]> = {
  student: ['student'],
  editor: ['instructor'],
};

export interface AddMembersOutcome {
  added: UserRow[];
  already: UserRow[];
  created: { user: UserRow; setPassword: SetPasswordLink }[];
  invalid: string[];
  unknownIds: number[];
  unknownEmails: string[];
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

export async function listMembers(ctx: AppContext, actor: Actor, kind: MemberKind, courseId: number) {
  await authorize(ctx, actor, kind, courseId, false);
  return repo.listMembers(ctx.db, kind, courseId, MAX_MEMBERS_LISTED);
}

function byId(rows: UserRow[]): UserRow[] {
  const seen = new Map<number, UserRow>();
  for (const row of rows) if (!seen.has(row.id)) seen.set(row.id, row);
  return [...seen.values()];
}

/**
 * Adds people by id and by e-mail in one transaction. Unknown e-mails become new accounts (no password,
 * empty names) when staff ask; an editor's unknown e-mails are only reported, so that nobody but staff
 * can mint an account and hold its set-password link. An editor's ids count only for people of the
 * editor's own courses; other ids are reported unknown, like ids of nobody, so ids cannot be probed.
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
  if (ids.length + emails.length > MAX_MEMBERS_PER_REQUEST) {
    throw badRequest(`At most ${MAX_MEMBERS_PER_REQUEST} people can be added in one request.`, {
      non_field_errors: [`Split the list: it names ${ids.length + emails.length} people.`],
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
      const created =
        role === 'staff'
          ? await insertUsers(
              tx,
              missing.map((email) => ({
                email,
                roles: [...ROLES_FOR_NEW_MEMBERS[kind]],
                passwordHash: null,
              })),
            )
          : [];
      const existing = byId([...foundById, ...foundByEmail]);
      const inserted = new Set(
        await repo.insertMembers(
          tx,
          kind,
          courseId,
          [...existing, ...created].map((u) => u.id),
        ),
      );
      return {
        added: existing.filter((u) => inserted.has(u.id)),
        already: existing.filter((u) => !inserted.has(u.id)),
        created,
        invalid,
        unknownIds: ids.filter((id) => !knownIds.has(id)),
        unknownEmails: role === 'staff' ? [] : missing,
      };
    });

  let outcome;
  try {
    outcome = await retryOnceOnUniqueViolation(attempt);
  } catch (error) {
    // The course was deleted while we were adding to it.
    if (repo.sqlStateOf(error) === repo.FOREIGN_KEY_VIOLATION) throw notFound();
    throw error;
  }
  return {
    ...outcome,
    created: outcome.created.map((user) => ({ user, setPassword: createSetPasswordLink(ctx.config, user) })),
  };
}

/** Two requests creating the same new account at once: the loser runs again and finds the account. */
async function retryOnceOnUniqueViolation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (repo.sqlStateOf(error) !== repo.UNIQUE_VIOLATION) throw error;
    return run();
  }
}

export async function removeMembers(
  ctx: AppContext,
  actor: Actor,
  kind: MemberKind,
  courseId: number,
  userIds: number[],
): Promise<number> {
  await authorize(ctx, actor, kind, courseId, true);
  return repo.deleteMembers(ctx.db, kind, courseId, [...new Set(userIds)]);
}
