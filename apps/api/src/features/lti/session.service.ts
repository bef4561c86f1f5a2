import type { LtiExchangeResponse, LtiLinkInfo } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { HttpError, notAuthenticated } from '../../lib/errors.ts';
import { openSession, type ClientInfo } from '../auth/auth.service.ts';
import { guessPassword } from '../auth/throttle.ts';
import { hashToken } from '../auth/tokens.ts';
import { findUserById, updateLastLogin } from '../users/users.service.ts';
import { applyLaunch, type LaunchFacts } from './landing.service.ts';
import { findLtiUser, linkLtiUser, peekLtiCode, takeLtiCode, type LtiCodeRow } from './launch.repo.ts';
import { findPlatformRow } from './platforms.repo.ts';

/*
 * The page inside the LMS gets its session from a one-time code (never tokens in a URL, and no cookie,
 * which a third-party frame may not keep): `POST /api/Lti/Exchange/`. A `link` code waits for the
 * password of the existing account with the platform's e-mail, counted by the sign-in throttle.
 */

const codeExpired = () =>
  new HttpError(
    410,
    'lti_code_expired',
    'This launch has expired or was already used. Open it again from the LMS.',
  );

async function openFor(ctx: AppContext, tx: Executor, userId: number, next: string, client: ClientInfo) {
  const user = await findUserById(tx, userId);
  if (!user?.isActive) throw codeExpired();
  await updateLastLogin(tx, user.id);
  const tokens = await openSession(ctx, tx, user.id, client);
  return { ...tokens, user: { pk: user.id, email: user.email }, next };
}

export async function exchangeLtiCode(
  ctx: AppContext,
  code: string,
  client: ClientInfo,
): Promise<LtiExchangeResponse> {
  return ctx.db.transaction(async (tx) => {
    const row = await takeLtiCode(tx, hashToken(code), 'sign_in');
    if (!row?.userId) throw codeExpired();
    return openFor(ctx, tx, row.userId, (row.payload as { next: string }).next, client);
  });
}

async function linkRow(
  ctx: AppContext,
  code: string,
): Promise<{ row: LtiCodeRow; email: string; platform: string; hash: string | null; active: boolean }> {
  const row = await peekLtiCode(ctx.db, hashToken(code), 'link');
  const user = row?.userId ? await findUserById(ctx.db, row.userId) : null;
  const platform = row ? await findPlatformRow(ctx.db, row.platformId) : null;
  if (!row || !user || !platform) throw codeExpired();
  return { row, email: user.email, platform: platform.name, hash: user.passwordHash, active: user.isActive };
}

export async function ltiLinkInfo(ctx: AppContext, code: string): Promise<LtiLinkInfo> {
  const { email, platform } = await linkRow(ctx, code);
  return { email, platform };
}

export async function linkLtiWithPassword(
  ctx: AppContext,
  input: { code: string; password: string },
  client: ClientInfo,
): Promise<LtiExchangeResponse> {
  const { row, email, hash, active } = await linkRow(ctx, input.code);
  if (!(await guessPassword(ctx, { email, ip: client.ip, password: input.password }, active ? hash : null))) {
    throw notAuthenticated('The password is not right. Try again.', 'invalid_credentials');
  }
  return ctx.db.transaction(async (tx) => {
    const taken = await takeLtiCode(tx, row.codeHash, 'link');
    const platform = await findPlatformRow(tx, row.platformId);
    if (!taken?.userId || taken.userId !== row.userId || !platform) throw codeExpired();
    const facts = taken.payload as LaunchFacts;
    // Linked meanwhile (another tab, or staff): that link stands; this code no longer holds.
    const other = await findLtiUser(tx, platform.id, facts.sub);
    if (other && other.userId !== taken.userId) throw codeExpired();
    await linkLtiUser(tx, {
      platformId: platform.id,
      sub: facts.sub,
      userId: taken.userId,
      email: facts.email,
    });
    const next = await applyLaunch(tx, platform, taken.userId, facts);
    return openFor(ctx, tx, taken.userId, next, client);
  });
}
