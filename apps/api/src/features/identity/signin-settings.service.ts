import type { SignInSettings } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { readPasswordHiddenDomains, writePasswordHiddenDomains } from './providers.repo.ts';

/** Whether `email` is at one of `domains` or a subdomain of one (`mail.u.ac.jp` under `u.ac.jp`). */
export function isUnderDomains(email: string, domains: string[]): boolean {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

export async function readSignInSettings(ctx: AppContext): Promise<SignInSettings> {
  return { password_hidden_domains: await readPasswordHiddenDomains(ctx.db) };
}

export async function writeSignInSettings(ctx: AppContext, input: SignInSettings): Promise<SignInSettings> {
  const domains = [...new Set(input.password_hidden_domains)];
  await writePasswordHiddenDomains(ctx.db, domains);
  return { password_hidden_domains: domains };
}

/**
 * Password sign-in is turned off for people at these domains (they sign in through their
 * institution), except staff: the way in when an IdP is down.
 */
export async function passwordSignInAllowed(
  ctx: AppContext,
  email: string,
  isStaff: boolean,
): Promise<boolean> {
  if (isStaff) return true;
  return !isUnderDomains(email, await readPasswordHiddenDomains(ctx.db));
}
