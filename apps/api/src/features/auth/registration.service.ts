import type { RegistrationRequest, ResendEmailRequest, VerifyEmailRequest } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isAllowedEmailDomain } from '../../lib/email-domains.ts';
import type { MessageLanguage } from '../../lib/language.ts';
import { queueEmails, writeEmails, type EmailDraft } from '../mail/outbox.ts';
import { findUserByEmail, findUserById, insertUser, type UserRow } from '../users/users.service.ts';
import { hashPassword } from './password-hash.ts';
import { checkPasswordRules, passwordMismatchMessage } from './password-rules.ts';
import {
  EMAIL_VERIFICATION_LIFETIME_SECONDS,
  createVerificationKey,
  isKeyExpired,
  isKeySignedFor,
  parseVerificationKey,
  verificationUrl,
} from './registration-key.ts';
import { markEmailVerified, updatePendingRegistration } from './registration.repo.ts';
import { reserveOrRefuse } from './throttle.ts';

/**
 * Self-registration by e-mail (docs/accounts.md): an inactive account and a verification e-mail; the
 * link activates it. No answer tells whether an address already has an account.
 */

/** Per client address and LOGIN_THROTTLE_WINDOW: registrations, and resends. */
export const REGISTRATIONS_PER_ADDRESS = 10;
export const RESENDS_PER_ADDRESS = 20;
/** Per e-mail address and LOGIN_THROTTLE_WINDOW, whether or not it has an account. */
export const RESENDS_PER_EMAIL = 3;

const registrationOff = () => notFound('Self-registration is not enabled.');
const invalidKey = () => badRequest('Invalid input.', { key: ['This link is not valid.'] }, 'invalid_key');
const expiredKey = () =>
  badRequest(
    'Invalid input.',
    { key: ['This link has expired. Ask for a new verification e-mail.'] },
    'expired_key',
  );
const alreadyVerified = () =>
  badRequest(
    'This e-mail address has already been verified.',
    { key: ['This e-mail address has already been verified.'] },
    'already_verified',
  );

/** A self-registration waiting for its link: inactive, never verified, with the password chosen then. */
export function isPendingRegistration(user: UserRow): boolean {
  return !user.isActive && user.emailVerifiedAt === null && user.passwordHash !== null;
}

async function throttle(ctx: AppContext, key: string, max: number): Promise<void> {
  await reserveOrRefuse(ctx.db, key, max, ctx.config.LOGIN_THROTTLE_WINDOW);
}

function verificationDraft(ctx: AppContext, user: UserRow): EmailDraft {
  return {
    kind: 'verify_email',
    to: user,
    link: verificationUrl(ctx.config, createVerificationKey(ctx.config, user)),
    lifetimeSeconds: EMAIL_VERIFICATION_LIFETIME_SECONDS,
  };
}

/**
 * POST Auth/Email/Registration/. A new address gets an inactive account and a verification e-mail. An
 * address with a pending registration gets the new password and a new e-mail (older links die); an
 * address with a working account gets nothing — the answer is the same 201 in every case, and the
 * password is hashed in every case, so neither the answer nor its timing tells which it was.
 */
export async function register(
  ctx: AppContext,
  input: RegistrationRequest,
  client: { ip: string; lang: MessageLanguage },
): Promise<void> {
  if (!ctx.config.SELF_REGISTRATION) throw registrationOff();
  const email = input.email.trim().toLowerCase();
  const firstName = input.first_name ?? '';
  const lastName = input.last_name ?? '';
  if (!isAllowedEmailDomain(email, ctx.config.ALLOWED_EMAIL_DOMAINS)) {
    const domains = ctx.config.ALLOWED_EMAIL_DOMAINS ?? [];
    throw badRequest(
      'Invalid input.',
      { email: [`Only addresses at ${domains.join(', ')} can register.`] },
      'domain_not_allowed',
    );
  }
  if (input.password1 !== input.password2) {
    throw badRequest('Invalid input.', { password2: [passwordMismatchMessage(client.lang)] });
  }
  const problems = checkPasswordRules(input.password1, { email, firstName, lastName }, client.lang);
  if (problems.length > 0) throw badRequest('Invalid input.', { password1: problems });
  await throttle(ctx, `register-address:${client.ip}`, REGISTRATIONS_PER_ADDRESS);

  const passwordHash = await hashPassword(input.password1);
  // The product's default language, as for every other new account.
  const displayLang = input.display_lang ?? 'ja';
  const ids = await ctx.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      if (!isPendingRegistration(existing)) return [];
      const updated = await updatePendingRegistration(tx, existing.id, {
        passwordHash,
        firstName,
        lastName,
        displayLang,
      });
      return updated ? writeEmails(tx, ctx.config, [verificationDraft(ctx, updated)]) : [];
    }
    const user = await insertUser(tx, {
      email,
      firstName,
      lastName,
      passwordHash,
      displayLang,
      isActive: false,
    });
    // Null: a concurrent registration of the same address won; it sends the e-mail.
    return user ? writeEmails(tx, ctx.config, [verificationDraft(ctx, user)]) : [];
  });
  await queueEmails(ctx, ids);
}

/**
 * POST Registration/verify-email/: activates the account the key was made for. A key works until it
 * expires or a newer registration replaces it; once used, it answers 400 `already_verified`.
 */
export async function verifyEmail(ctx: AppContext, input: VerifyEmailRequest): Promise<void> {
  const key = parseVerificationKey(input.key);
  if (!key) throw invalidKey();
  const user = await findUserById(ctx.db, key.userId);
  if (!user || !isKeySignedFor(ctx.config, user, key)) throw invalidKey();
  if (user.emailVerifiedAt !== null) throw alreadyVerified();
  if (isKeyExpired(key)) throw expiredKey();
  // The update matches only an unverified account: of two racing clicks, one activates.
  if (!(await markEmailVerified(ctx.db, user.id))) throw alreadyVerified();
}

/**
 * POST Registration/resend-email/: a new verification e-mail when the address has a pending
 * registration; nothing otherwise, with the same answer. Throttled per address and per e-mail.
 */
export async function resendVerificationEmail(
  ctx: AppContext,
  input: ResendEmailRequest,
  client: { ip: string },
): Promise<void> {
  if (!ctx.config.SELF_REGISTRATION) throw registrationOff();
  const email = input.email.trim().toLowerCase();
  await throttle(ctx, `resend-address:${client.ip}`, RESENDS_PER_ADDRESS);
  await throttle(ctx, `resend-email:${email}`, RESENDS_PER_EMAIL);
  const ids = await ctx.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user || !isPendingRegistration(user)) return [];
    return writeEmails(tx, ctx.config, [verificationDraft(ctx, user)]);
  });
  await queueEmails(ctx, ids);
}
