import type { GoogleLoginRequest, LoginResponse } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { domainOf, isAllowedEmailDomain } from '../../lib/email-domains.ts';
import { HttpError, notAuthenticated, notFound } from '../../lib/errors.ts';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  updateLastLogin,
  type UserRow,
} from '../users/users.service.ts';
import { openSession, type ClientInfo } from './auth.service.ts';
import { fetchGoogleIdentity, GoogleError, type GoogleIdentity } from './google.client.ts';
import {
  findGoogleLink,
  hasOtherGoogleLink,
  insertGoogleLink,
  markEmailVerified,
  touchGoogleLink,
} from './google.repo.ts';
import { beginAddressAttempt, releaseAddressAttempt } from './throttle.ts';

/*
 * Google sign-in (docs/accounts-google.md). Every refusal is a 401 with its own code, so the page can
 * say what to do; a Google that cannot be reached is a 502, which is nobody's fault at the keyboard.
 */

const rejected = () =>
  notAuthenticated('Google did not confirm this sign-in. Try again.', 'google_token_invalid');
const unverified = () =>
  notAuthenticated(
    'Google has not verified the e-mail address of this Google account. Verify it with Google, or sign in with your e-mail and password.',
    'email_not_verified',
  );
const domainNotAllowed = (email: string) =>
  notAuthenticated(
    `Addresses at ${domainOf(email)} cannot sign in here. Use the Google account of your school.`,
    'email_domain_not_allowed',
  );
const noAccount = (email: string) =>
  notAuthenticated(`No account uses ${email}. Ask your instructor to add you.`, 'no_account');
const inactive = () => notAuthenticated('This account has been deactivated.', 'account_inactive');
const otherGoogleAccount = () =>
  notAuthenticated(
    'Your account is linked to another Google account. Sign in with that one, or with your e-mail and password.',
    'google_account_mismatch',
  );
const googleUnavailable = () =>
  new HttpError(502, 'google_unavailable', 'Google could not be reached. Try again in a moment.');

/** The e-mail Google vouches for, if it is one this installation accepts. */
function acceptedEmail(ctx: AppContext, identity: GoogleIdentity): string {
  if (!identity.email || !identity.emailVerified) throw unverified();
  if (!isAllowedEmailDomain(identity.email, ctx.config.ALLOWED_EMAIL_DOMAINS)) {
    throw domainNotAllowed(identity.email);
  }
  return identity.email;
}

/**
 * The account this Google account signs in to. Linked by Google's subject id; the first time, by the
 * e-mail Google has verified (it proves the owner reads that mailbox), never by an unverified one.
 * Without such an account, one is created only when SELF_REGISTRATION is on.
 */
async function resolveUser(
  ctx: AppContext,
  tx: Executor,
  identity: GoogleIdentity,
  email: string,
): Promise<{ user: UserRow; linkId: number }> {
  const link = await findGoogleLink(tx, identity.subject);
  if (link) {
    const user = await findUserById(tx, link.userId);
    if (!user) throw rejected();
    return { user, linkId: link.id };
  }
  let user = await findUserByEmail(tx, email);
  if (user) {
    // A second Google account claiming the address (a recycled mailbox, say) does not take it over.
    if (await hasOtherGoogleLink(tx, user.id, identity.subject)) throw otherGoogleAccount();
  } else {
    if (!ctx.config.SELF_REGISTRATION) throw noAccount(email);
    user =
      (await insertUser(tx, {
        email,
        firstName: identity.givenName,
        lastName: identity.familyName,
        emailVerifiedAt: new Date(),
      })) ?? (await findUserByEmail(tx, email));
    if (!user) throw rejected();
  }
  const made = await insertGoogleLink(tx, { subject: identity.subject, userId: user.id, email });
  // A concurrent first sign-in of the same Google account linked it first: follow that link.
  if (made.userId !== user.id) user = await findUserById(tx, made.userId);
  if (!user) throw rejected();
  return { user, linkId: made.id };
}

async function verify(ctx: AppContext, accessToken: string, clientId: string, addressKey: string) {
  try {
    return await fetchGoogleIdentity(
      {
        clientId,
        userinfoUrl: ctx.config.GOOGLE_USERINFO_URL,
        tokeninfoUrl: ctx.config.GOOGLE_TOKENINFO_URL,
      },
      accessToken,
    );
  } catch (error) {
    if (!(error instanceof GoogleError)) throw error;
    if (error.failure === 'rejected') throw rejected();
    ctx.log.warn({ err: error }, 'google sign-in: Google is unavailable');
    await releaseAddressAttempt(ctx, addressKey);
    throw googleUnavailable();
  }
}

/**
 * Signs in with a Google access token and answers as e-mail sign-in does. Attempts count against the
 * client's address (with failed passwords), so the route cannot be used to make us call Google in bulk.
 */
export async function signInWithGoogle(
  ctx: AppContext,
  input: GoogleLoginRequest,
  client: ClientInfo,
): Promise<LoginResponse> {
  const clientId = ctx.config.GOOGLE_CLIENT_ID;
  if (!clientId) throw notFound('Google sign-in is not configured.');
  const addressKey = await beginAddressAttempt(ctx, client.ip);
  const identity = await verify(ctx, input.access_token, clientId, addressKey);
  const email = acceptedEmail(ctx, identity);
  const result = await ctx.db.transaction(async (tx) => {
    const { user, linkId } = await resolveUser(ctx, tx, identity, email);
    if (!user.isActive) throw inactive();
    await touchGoogleLink(tx, linkId, email);
    await markEmailVerified(tx, user.id, email);
    await updateLastLogin(tx, user.id);
    const tokens = await openSession(ctx, tx, user.id, client);
    return { ...tokens, user: { pk: user.id, email: user.email } };
  });
  await releaseAddressAttempt(ctx, addressKey);
  return result;
}
