import type { SetPasswordLink, UserCreate, UserListQuery, UserUpdate } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import type { Executor } from '../../db/client.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { revokeUserSessions } from '../auth/sessions.service.ts';
import { createSetPasswordLink } from '../auth/set-password-link.ts';
import { queueEmails, writeEmails } from '../mail/outbox.ts';
import {
  deleteUser,
  findUserById,
  insertUser,
  listUsers,
  updateUser,
  type UserChanges,
  type UserRow,
} from './users.repo.ts';

/*
 * The accounts as other features reach them (each takes an Executor, so it joins the caller's transaction):
 * signing in and registering (auth), adding members by e-mail (courses), writing e-mails to a user (mail),
 * the demo seed's accounts.
 */
export {
  findUserByEmail,
  findUserById,
  findUserByIdForUpdate,
  hasAnyUser,
  insertUser,
  insertUsers,
  listUsersByEmails,
  listUsersByIds,
  setPasswordHash,
  updateLastLogin,
  type UserRow,
} from './users.repo.ts';

/** Fields only staff may send; a non-staff caller sending any of them gets 403. */
const STAFF_ONLY_FIELDS = ['email', 'is_staff', 'is_active', 'roles'] as const;

const emailTaken = () =>
  conflict('A user with that email address already exists.', 'email_taken', {
    email: ['A user with that email address already exists.'],
  });

export async function listUsersForStaff(ctx: AppContext, query: UserListQuery) {
  return listUsers(ctx.db, query);
}

/**
 * A staff member opens an account; the new user sets their password through the link, which is returned
 * and also e-mailed to them (an invitation in their language, written with the account).
 */
export async function createAccount(
  ctx: AppContext,
  input: UserCreate,
): Promise<{ user: UserRow; setPassword: SetPasswordLink }> {
  const created = await ctx.db.transaction(async (tx) => {
    const user = await insertUser(tx, {
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      isStaff: input.is_staff,
      roles: [...new Set(input.roles)],
      displayLang: input.display_lang,
    });
    if (!user) return null;
    const setPassword = createSetPasswordLink(ctx.config, user);
    const emailIds = await writeEmails(tx, ctx.config, [
      {
        kind: 'invitation',
        to: user,
        link: setPassword.url,
        lifetimeSeconds: ctx.config.SET_PASSWORD_LINK_LIFETIME,
      },
    ]);
    return { user, setPassword, emailIds };
  });
  if (!created) throw emailTaken();
  await queueEmails(ctx, created.emailIds);
  return { user: created.user, setPassword: created.setPassword };
}

/** A user the caller may see through Auth/User/{id}/: themself, or anyone for staff. Others: 404. */
export async function getVisibleUser(ctx: AppContext, actor: Actor, id: number): Promise<UserRow> {
  if (!actor.isStaff && actor.userId !== id) throw notFound();
  const user = await findUserById(ctx.db, id);
  if (!user) throw notFound();
  return user;
}

/** A new set-password link for an account: returned to staff, and e-mailed to the account's owner. */
export async function createSetPasswordLinkFor(ctx: AppContext, id: number): Promise<SetPasswordLink> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw notFound();
  const link = createSetPasswordLink(ctx.config, user);
  const emailIds = await writeEmails(ctx.db, ctx.config, [
    {
      kind: 'set_password',
      to: user,
      link: link.url,
      lifetimeSeconds: ctx.config.SET_PASSWORD_LINK_LIFETIME,
    },
  ]);
  await queueEmails(ctx, emailIds);
  return link;
}

/**
 * PATCH and PUT of Auth/User/{id}/. Users edit their names and language; staff also the e-mail, staff
 * flag, active flag and roles — but not their own staff or active flag, so nobody locks themself out
 * (another staff member can).
 */
export async function updateAccount(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: UserUpdate,
): Promise<UserRow> {
  const current = await getVisibleUser(ctx, actor, id);
  if (!actor.isStaff && STAFF_ONLY_FIELDS.some((field) => input[field] !== undefined)) {
    throw forbidden('Only staff can change the e-mail address, staff status, active status or roles.');
  }
  if (actor.userId === id && (input.is_staff === false || input.is_active === false)) {
    throw badRequest('You cannot remove your own staff or active status; ask another staff member.', {
      [input.is_staff === false ? 'is_staff' : 'is_active']: [
        'You cannot remove your own staff or active status.',
      ],
    });
  }
  const changes: UserChanges = {
    email: input.email,
    firstName: input.first_name,
    lastName: input.last_name,
    displayLang: input.display_lang,
    isStaff: input.is_staff,
    isActive: input.is_active,
    roles: input.roles ? [...new Set(input.roles)] : undefined,
  };
  const deactivating = input.is_active === false && current.isActive;
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateUser(tx, id, changes);
    // Ended now, so reactivating the account later does not bring old sessions back.
    if (row && row !== 'email_taken' && deactivating) await revokeUserSessions(tx, id, 'deactivated');
    return row;
  });
  // Staff status, e-mail or activity may have changed: the next request reads them afresh.
  ctx.sessions.forgetUser(id);
  if (updated === 'email_taken') throw emailTaken();
  if (!updated) throw notFound();
  return updated;
}

/**
 * Users may delete their own account; staff may delete anyone else's. Staff cannot delete themselves,
 * so a system cannot lose its last administrator by accident.
 */
export async function deleteAccount(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await getVisibleUser(ctx, actor, id);
  if (actor.isStaff && actor.userId === id) {
    throw badRequest('Staff cannot delete their own account; ask another staff member.');
  }
  const deleted = await deleteUser(ctx.db, id);
  ctx.sessions.forgetUser(id);
  if (!deleted) throw notFound();
}

/** Makes the account staff: an LMS Administrator where the platform's registration allows it (features/lti). */
export async function setStaff(db: Executor, userId: number): Promise<void> {
  await updateUser(db, userId, { isStaff: true });
}
