import type { NewPasswords, PasswordChangeRequest, PasswordResetConfirmRequest } from '@kadai/contracts';
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
import { checkPasswordRules, oldPasswordMessage, passwordMismatchMessage } from './password-rules.ts';
import { checkSetPasswordToken, decodeUid } from './set-password-link.ts';
import { guessPassword } from './throttle.ts';

/** Django's wording, typographic apostrophe included: the web app shows it as it comes. */
export const PASSWORD_MISMATCH = passwordMismatchMessage('en');

const invalidUid = () => badRequest('Invalid input.', { uid: ['Invalid value'] });
const invalidToken = () => badRequest('Invalid input.', { token: ['Invalid value'] });

/**
 * As Django's SetPasswordForm: the fields must match, then every rule is checked, all under
 * new_password2. Returns the messages (empty when the new password is acceptable).
 */
function newPasswordProblems(input: NewPasswords, user: UserRow, lang: MessageLanguage): string[] {
  if (input.new_password1 !== input.new_password2) return [passwordMismatchMessage(lang)];
  const owner = { email: user.email, firstName: user.firstName, lastName: user.lastName };
  return checkPasswordRules(input.new_password2, owner, lang);
}

function assertAcceptable(input: NewPasswords, user: UserRow, lang: MessageLanguage): void {
  const problems = newPasswordProblems(input, user, lang);
  if (problems.length > 0) throw badRequest('Invalid input.', { new_password2: problems });
}

/** Where a password change comes from: the address counts against the sign-in throttle. */
export interface PasswordChangeClient {
  ip: string;
  lang: MessageLanguage;
}

/**
 * Checks the current password of an account that has one (OWASP ASVS 6.2.3), so a session left open
 * on a shared computer cannot lock its owner out. The check is a password guess like a sign-in, so it
 * spends the same throttle (the account's and the address's counters, shared with sign-in: guesses
 * here and at sign-in add up) and answers 429 over the limit. Returns the `old_password` messages.
 */
async function oldPasswordProblems(
  ctx: AppContext,
  user: UserRow,
  oldPassword: string | undefined,
  client: PasswordChangeClient,
): Promise<string[]> {
  // Signed up through Google: there is nothing to ask for; the live session stands for it.
  if (!user.passwordHash) return [];
  if (!oldPassword) return [oldPasswordMessage('missing', client.lang)];
  const guess = { email: user.email, ip: client.ip, password: oldPassword };
  if (!(await guessPassword(ctx, guess, user.passwordHash))) {
    return [oldPasswordMessage('incorrect', client.lang)];
  }
  return [];
}

/**
 * A signed-in user sets a new password, giving the current one if the account has one; every other
 * session ends, the one in use keeps working. A refusal names every field at fault at once.
 */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: PasswordChangeRequest,
  client: PasswordChangeClient,
): Promise<void> {
  const user = await findUserById(ctx.db, actor.userId);
  if (!user) throw notFound();
  const fields: Record<string, string[]> = {};
  const oldProblems = await oldPasswordProblems(ctx, user, input.old_password, client);
  if (oldProblems.length > 0) fields.old_password = oldProblems;
  const newProblems = newPasswordProblems(input, user, client.lang);
  if (newProblems.length > 0) fields.new_password2 = newProblems;
  if (Object.keys(fields).length > 0) throw badRequest('Invalid input.', fields);
  const passwordHash = await hashPassword(input.new_password1);
  const applied = await ctx.db.transaction(async (tx) => {
    const locked = await findUserByIdForUpdate(tx, user.id);
    // A change racing this one (another tab, a set-password link) replaced the password checked above.
    if (!locked || locked.passwordHash !== user.passwordHash) return false;
    await setPasswordHash(tx, user.id, passwordHash);
    await revokeUserSessions(tx, user.id, 'password_change', actor.sessionId);
    return true;
  });
  if (!applied) {
    throw badRequest('Invalid input.', { old_password: [oldPasswordMessage('incorrect', client.lang)] });
  }
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
