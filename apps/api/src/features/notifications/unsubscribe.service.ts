import { NOTIFICATION_KINDS, type UnsubscribeResult } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { muteCourse, turnEmailOff, userExists } from './unsubscribe.repo.ts';
import { readUnsubscribeToken, type UnsubscribeClaim } from './unsubscribe-token.ts';

/*
 * The unsubscribe link of every notification e-mail and digest (docs/notifications.md, "Unsubscribe"):
 * no sign-in, the signed token is the authority. GET describes what it turns off; POST (a mail client's
 * RFC 8058 one-click, or the web page's button) turns it off, as often as it is sent.
 */

const invalidToken = () =>
  badRequest(
    'This unsubscribe link is not valid. Change your e-mails in the notification settings.',
    undefined,
    'invalid_token',
  );

/** The claim of a token that is ours and names an account that still exists; else 400 invalid_token. */
async function claimOf(ctx: AppContext, token: string): Promise<UnsubscribeClaim> {
  const claim = readUnsubscribeToken(ctx.config.JWT_SECRET, token);
  if (!claim || !(await userExists(ctx.db, claim.userId))) throw invalidToken();
  return claim;
}

function resultOf(claim: UnsubscribeClaim): UnsubscribeResult {
  return { kind: claim.scope.type === 'kind' ? claim.scope.kind : null, scope: claim.scope.type };
}

export async function describeUnsubscribe(ctx: AppContext, token: string): Promise<UnsubscribeResult> {
  return resultOf(await claimOf(ctx, token));
}

export async function unsubscribe(ctx: AppContext, token: string): Promise<UnsubscribeResult> {
  const claim = await claimOf(ctx, token);
  const { scope } = claim;
  if (scope.type === 'course') await muteCourse(ctx.db, claim.userId, scope.courseId);
  else await turnEmailOff(ctx.db, claim.userId, scope.type === 'kind' ? [scope.kind] : NOTIFICATION_KINDS);
  return resultOf(claim);
}
