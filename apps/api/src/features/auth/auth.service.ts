import type { LoginRequest, LoginResponse, LogoutRequest, TokenPair, UserInfo } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, notAuthenticated, notFound } from '../../lib/errors.ts';
import { passwordSignInAllowed } from '../identity/signin-settings.service.ts';
import { findUserByEmail, updateLastLogin } from '../users/users.service.ts';
import { languageOf, rolesOf } from '../users/users.shape.ts';
import {
  findRefreshTokenForUpdate,
  findSessionIdOfRefreshToken,
  insertRefreshToken,
  insertSession,
  findUserWithCourseIds,
  markRefreshTokenUsed,
  revokeSessions,
  revokeUserSessions,
} from './auth.repo.ts';
import { guessPassword } from './throttle.ts';
import { hashToken, newRefreshToken, signAccessToken } from './tokens.ts';

/** Where a sign-in comes from; kept on the session so a user can tell their devices apart. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

const MAX_USER_AGENT_LENGTH = 512;

/** The one answer to every failed sign-in, so nobody can learn which e-mails have accounts. */
const invalidCredentials = () =>
  notAuthenticated('No active account found with the given credentials', 'invalid_credentials');
/** Told only to someone who gave the right password: it reveals nothing to a guesser. */
const passwordSignInDisabled = () =>
  new HttpError(
    403,
    'password_sign_in_disabled',
    'People at your institution sign in with their university account. Use its button above.',
  );
const tokenNotValid = () => notAuthenticated('Token is invalid or expired', 'token_not_valid');
const tokenReused = () =>
  notAuthenticated(
    'Refresh token was already used; the session has been ended. Sign in again.',
    'token_reused',
  );

async function issueTokens(
  ctx: AppContext,
  tx: Executor,
  userId: number,
  sessionId: string,
): Promise<TokenPair> {
  const refresh = newRefreshToken();
  await insertRefreshToken(tx, {
    sessionId,
    tokenHash: refresh.hash,
    expiresAt: new Date(Date.now() + ctx.config.REFRESH_TOKEN_LIFETIME * 1000),
  });
  const access = await signAccessToken(ctx.config.JWT_SECRET, ctx.config.ACCESS_TOKEN_LIFETIME, {
    userId,
    sessionId,
  });
  return { access, refresh: refresh.token };
}

/**
 * Signs in with e-mail and password. The throttle is checked before any hashing, and every failure
 * spends exactly one hash of the same cost: the account's own, or, for an unknown e-mail, a
 * deactivated account or one without a password, a fixed dummy. So neither the answer nor its timing
 * tells whether an account exists (login-timing.test.ts).
 */
export async function login(
  ctx: AppContext,
  input: LoginRequest,
  client: ClientInfo,
): Promise<LoginResponse> {
  const user = await findUserByEmail(ctx.db, input.email);
  const guess = { email: input.email, ip: client.ip, password: input.password };
  const matches = await guessPassword(ctx, guess, user?.isActive ? user.passwordHash : null);
  if (!user || !matches) throw invalidCredentials();
  if (!(await passwordSignInAllowed(ctx, user.email, user.isStaff))) throw passwordSignInDisabled();
  const tokens = await ctx.db.transaction(async (tx) => {
    await updateLastLogin(tx, user.id);
    return openSession(ctx, tx, user.id, client);
  });
  return { ...tokens, user: { pk: user.id, email: user.email } };
}

/** A new session on the client's device and its first token pair: where every way of signing in ends. */
export async function openSession(
  ctx: AppContext,
  tx: Executor,
  userId: number,
  client: ClientInfo,
): Promise<TokenPair> {
  return (await openSessionWithId(ctx, tx, userId, client)).tokens;
}

/** openSession, also saying which session it is (single logout finds it again by this id). */
export async function openSessionWithId(
  ctx: AppContext,
  tx: Executor,
  userId: number,
  client: ClientInfo,
): Promise<{ tokens: TokenPair; sessionId: string }> {
  const session = await insertSession(tx, {
    userId,
    userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
    ipAddress: client.ip,
  });
  return { tokens: await issueTokens(ctx, tx, userId, session.id), sessionId: session.id };
}

/** Ends these sessions at once (an IdP's single logout); returns how many users were signed out. */
export async function endSessions(ctx: AppContext, sessionIds: string[]): Promise<number> {
  const userIds = await revokeSessions(ctx.db, sessionIds, 'sso_logout');
  for (const userId of userIds) ctx.sessions.forgetUser(userId);
  return userIds.length;
}

type RefreshOutcome =
  | { ok: true; tokens: TokenPair }
  | { ok: false; reused: false }
  | { ok: false; reused: true; userId: number };

/**
 * Exchanges a refresh token for a new pair. Each refresh token works once: the row is locked, so of
 * two concurrent refreshes one wins and the other finds the token used. A used token coming back
 * means it was copied, so the whole session ends — the thief's copies and the owner's alike.
 */
export async function refreshTokens(ctx: AppContext, refreshToken: string): Promise<TokenPair> {
  const outcome = await ctx.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const row = await findRefreshTokenForUpdate(tx, hashToken(refreshToken));
    if (!row || row.sessionRevokedAt || !row.userIsActive) return { ok: false, reused: false };
    if (row.usedAt) {
      // Returned, not thrown, so the revocation commits.
      await revokeSessions(tx, [row.sessionId], 'token_reused');
      return { ok: false, reused: true, userId: row.userId };
    }
    if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reused: false };
    await markRefreshTokenUsed(tx, row.id);
    return { ok: true, tokens: await issueTokens(ctx, tx, row.userId, row.sessionId) };
  });
  if (outcome.ok) return outcome.tokens;
  if (!outcome.reused) throw tokenNotValid();
  ctx.sessions.forgetUser(outcome.userId);
  throw tokenReused();
}

/** Ends the caller's session (and the session of `refresh`, if it is theirs), or all of them. */
export async function logout(ctx: AppContext, actor: Actor, input: LogoutRequest): Promise<void> {
  if (input.all) {
    await revokeUserSessions(ctx.db, actor.userId, 'logout');
    ctx.sessions.forgetUser(actor.userId);
    return;
  }
  const sessionIds = [actor.sessionId];
  if (input.refresh) {
    const other = await findSessionIdOfRefreshToken(ctx.db, actor.userId, hashToken(input.refresh));
    if (other && other !== actor.sessionId) sessionIds.push(other);
  }
  await revokeSessions(ctx.db, sessionIds, 'logout');
  ctx.sessions.forgetUser(actor.userId);
}

export async function getUserInfo(ctx: AppContext, actor: Actor): Promise<UserInfo> {
  const user = await findUserWithCourseIds(ctx.db, actor.userId);
  if (!user) throw notFound();
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    roles: rolesOf(user),
    is_staff: user.isStaff,
    editor_courses: user.editorCourses,
    student_courses: user.studentCourses,
    display_lang: languageOf(user),
  };
}
