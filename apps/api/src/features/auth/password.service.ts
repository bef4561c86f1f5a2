import type { PasswordChangeRequest, PasswordResetConfirmRequest } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import {
  findUserById,
  findUserByIdForUpdate,
  setPasswordHash,
  type UserRow,
} from '../users/users.service.ts';
import { revokeUserSessions } from './auth.repo.ts';
import { hashPassword } from './password-hash.ts';
import type { MessageLanguage } from '../../lib/language.ts';
import { checkPasswordRules, passwordMismatchMessage } from './password-rules.ts';
import { checkSetPasswordToken, decodeUid } from './set-password-link.ts';

/** Django's wording, typographic apostrophe included: the web app shows it as it comes. */
export const PASSWORD_MISMATCH = passwordMismatchMessage('en');

const invalidUid = () => badRequest('Invalid input.', { uid: ['Invalid value'] });
const invalidToken = () => badRequest('Invalid input.', { token: ['Invalid value'] });

/** As Django's SetPasswordForm: the fields must match, then every rule is checked, all under new_password2. */
function assertAcceptable(input: PasswordChangeRequest, user: UserRow, lang: MessageLanguage): void {
  if (input.new_password1 !== input.new_password2) {
    throw badRequest('Invalid input.', { new_password2: [passwordMismatchMessage(lang)] });
  }
  const owner = { email: user.email, firstName: user.firstName, lastName: user.lastName };
  const problems = checkPasswordRules(input.new_password2, owner, lang);
  if (problems.length > 0) throw badRequest('Invalid input.', { new_password2: problems });
}

/** A signed-in user sets a new password; every other session ends, the one in use keeps working. */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: PasswordChangeRequest,
  lang: MessageLanguage = 'en',
): Promise<void> {
  const user = await findUserById(ctx.db, actor.userId);
  if (!user) throw notFound();
  assertAcceptable(input, user, lang);
  const passwordHash = await hashPassword(input.new_password1);
  await ctx.db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash);
    await revokeUserSessions(tx, user.id, 'password_change', actor.sessionId);
  });
  ctx.sessions.forgetUser(user.id);
}

/**
 * Sets a password from a set-password link (uid + token). Every session ends, and the link dies with
 * the old password, so it works once.
 */
export async function confirmPasswordReset(
  ctx: AppContext,
  input: PasswordResetConfirmRequest,
  lang: MessageLanguage = 'en',
): Promise<void> {
  const userId = decodeUid(input.uid);
  const user = userId === null ? null : await findUserById(ctx.db, userId);
  if (!user || !user.isActive) throw invalidUid();
  if (!checkSetPasswordToken(ctx.config, user, input.token)) throw invalidToken();
  assertAcceptable(input, user, lang);
  const passwordHash = await hashPassword(input.new_password1);
  const applied = await ctx.db.transaction(async (tx) => {
    const locked = await findUserByIdForUpdate(tx, user.id);
    // A second use of the same link, racing this one, finds the password already changed.
    if (!locked || !checkSetPasswordToken(ctx.config, locked, input.token)) return false;
    await setPasswordHash(tx, user.id, passwordHash);
    await revokeUserSessions(tx, user.id, 'password_reset');
    return true;
  });
  if (!applied) throw invalidToken();
  ctx.sessions.forgetUser(user.id);
}
