import { LTI_ERRORS, type LtiError } from '@kadai/contracts';
import { callbackTarget, completeSignIn } from '../auth/sign-in.ts';
import { useSession } from '../auth/session.ts';
import { exchangeLtiCode, linkLtiAccount } from './lti-launch.api.ts';

/** Why a launch did not work: a reason the server gives, or `unknown`. */
export type LtiReason = LtiError | 'unknown';

/** The `error` a launch came back with, or `unknown` for a reason this version does not know. */
export function ltiErrorOf(value: string | null): LtiReason | null {
  if (value === null || value === '') return null;
  return LTI_ERRORS.find((reason) => reason === value) ?? 'unknown';
}

/** Where a launch leads: the server's `next` when it is a path of this app, else the course list. */
export function ltiTarget(next: string): string {
  return callbackTarget(next);
}

/**
 * A launch from an LMS: the one-time code the server handed to `/lti?code=`, exchanged for our pair,
 * then post-login as every sign-in (the session is kept as an institutional sign-in keeps it). Returns
 * the page to open. On a failure the browser is left signed out: whoever was signed in here before
 * is not the person the LMS sent.
 */
export async function signInWithLtiCode(code: string): Promise<string> {
  try {
    const result = await exchangeLtiCode(code);
    await completeSignIn(result);
    return ltiTarget(result.next);
  } catch (error) {
    useSession.getState().reset();
    throw error;
  }
}

/** A first launch linked to the existing account whose password this is, then post-login. */
export async function signInByLtiLinking(code: string, password: string): Promise<string> {
  const result = await linkLtiAccount(code, password);
  await completeSignIn(result);
  return ltiTarget(result.next);
}
