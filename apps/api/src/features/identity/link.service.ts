import type { SsoExchangeResponse, SsoLinkInfo } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { notAuthenticated } from '../../lib/errors.ts';
import type { ClientInfo } from '../auth/auth.service.ts';
import { guessPassword } from '../auth/throttle.ts';
import { hashToken } from '../auth/tokens.ts';
import { findUserById } from '../users/users.service.ts';
import { codeExpired, completeLink } from './accounts.service.ts';
import { findProviderRow } from './providers.repo.ts';
import { toPublicProvider } from './providers.service.ts';
import { peekSsoCode, takeSsoCode } from './sso.repo.ts';

/*
 * The first institutional sign-in of someone who already has an account with the asserted e-mail:
 * they prove the account is theirs with its password, once (docs/sign-in.md). The guesses count
 * against the same throttle as sign-in; a wrong password leaves the code usable until it expires.
 */

export async function linkInfo(ctx: AppContext, code: string): Promise<SsoLinkInfo> {
  const row = await peekSsoCode(ctx.db, hashToken(code), 'link');
  const user = row?.userId ? await findUserById(ctx.db, row.userId) : null;
  const provider = row ? await findProviderRow(ctx.db, row.providerId) : null;
  if (!row || !user || !provider) throw codeExpired();
  return {
    email: user.email,
    provider: toPublicProvider(provider),
    has_password: user.passwordHash !== null,
  };
}

const wrongPassword = () => notAuthenticated('The password is not right. Try again.', 'invalid_credentials');

export async function linkWithPassword(
  ctx: AppContext,
  input: { code: string; password: string },
  client: ClientInfo,
): Promise<SsoExchangeResponse> {
  const codeHash = hashToken(input.code);
  const row = await peekSsoCode(ctx.db, codeHash, 'link');
  const user = row?.userId ? await findUserById(ctx.db, row.userId) : null;
  if (!row || !user) throw codeExpired();
  const guess = { email: user.email, ip: client.ip, password: input.password };
  if (!(await guessPassword(ctx, guess, user.isActive ? user.passwordHash : null))) throw wrongPassword();
  return ctx.db.transaction(async (tx) => {
    const taken = await takeSsoCode(tx, codeHash, 'link');
    if (!taken || taken.userId !== user.id) throw codeExpired();
    return completeLink(ctx, tx, taken, client);
  });
}
