import type { Language, LoginResponse, UserInfo } from '@kadai/contracts';
import {
  exchangeSsoCode,
  getUserInfo,
  linkSsoIdentity,
  loginWithEmail,
  loginWithGoogle,
  logout,
} from './auth.api.ts';
import { useSession } from './session.ts';
import { updateUser } from '../users/users.api.ts';
import { LOGIN_PATH } from '../../api/client.ts';

/**
 * Set once someone picks a language on this device while signed out (on the login page, say): that
 * choice then wins over the one saved in their account at sign-in, and is saved to the account. Kept in
 * the tab's sessionStorage, not in memory: a university sign-in leaves the app for the identity provider
 * and comes back as a new page load.
 */
const LANGUAGE_CHOSEN_KEY = 'kadai-language-chosen';

function markLanguageChosen(): void {
  try {
    sessionStorage.setItem(LANGUAGE_CHOSEN_KEY, '1');
  } catch {
    // Storage refused (a privacy mode): the account's language applies at sign-in.
  }
}

function takeLanguageChosen(): boolean {
  try {
    const chosen = sessionStorage.getItem(LANGUAGE_CHOSEN_KEY) === '1';
    sessionStorage.removeItem(LANGUAGE_CHOSEN_KEY);
    return chosen;
  } catch {
    return false;
  }
}

/** The header's language switcher: the interface follows at once; a signed-in account remembers it. */
export function chooseLanguage(language: Language): void {
  const session = useSession.getState();
  session.setDisplayLang(language);
  if (session.authToken === null) {
    markLanguageChosen();
    return;
  }
  if (session.userId !== null) {
    updateUser(session.userId, { display_lang: language }).catch(() => {
      // The choice already applies on this device; the account keeps its old one until next time.
    });
  }
}

function settleLanguage(info: UserInfo): void {
  const session = useSession.getState();
  if (takeLanguageChosen()) {
    if (info.display_lang !== session.displayLang) {
      updateUser(info.id, { display_lang: session.displayLang }).catch(() => {
        // Best effort, as in chooseLanguage.
      });
    }
    return;
  }
  session.setDisplayLang(info.display_lang);
}

/** Post-login: load the user info and keep id, roles, staff flag and editor courses (spec §4). */
export async function loadUserInfo(): Promise<UserInfo> {
  const info = await getUserInfo();
  useSession.getState().applyUserInfo(info);
  return info;
}

/**
 * Keeps the tokens, e-mail and user id of a sign-in, then post-login; a failure leaves it signed out.
 * Every way in ends here, an LTI launch from an LMS too (features/lti).
 */
export async function completeSignIn(result: LoginResponse): Promise<void> {
  const session = useSession.getState();
  session.login({ access: result.access, refresh: result.refresh }, result.user.email, result.user.pk);
  try {
    settleLanguage(await loadUserInfo());
  } catch (error) {
    useSession.getState().reset();
    throw error;
  }
}

/** E-mail login, then post-login. A failure at either step leaves the session signed out. */
export async function signInWithEmail(email: string, password: string): Promise<void> {
  await completeSignIn(await loginWithEmail({ email, password }));
}

/**
 * Google login with the access token Google's token client gave, then post-login. On every failure
 * both tokens are cleared (spec §4), whatever the session held before.
 */
export async function signInWithGoogle(accessToken: string): Promise<void> {
  try {
    await completeSignIn(await loginWithGoogle({ access_token: accessToken }));
  } catch (error) {
    useSession.getState().reset();
    throw error;
  }
}

/**
 * Institutional sign-in (SAML or OpenID Connect): the one-time code the server handed to
 * `/login/sso?code=`, exchanged for our pair, then post-login, as Google sign-in does. Returns where
 * the person was going when they started (the server kept it), or null.
 */
export async function signInWithSsoCode(code: string): Promise<string | null> {
  try {
    const result = await exchangeSsoCode(code);
    await completeSignIn(result);
    return result.next;
  } catch (error) {
    useSession.getState().reset();
    throw error;
  }
}

/** A first institutional sign-in linked to the existing account whose password this is, then post-login. */
export async function signInByLinking(code: string, password: string): Promise<string | null> {
  const result = await linkSsoIdentity(code, password);
  await completeSignIn(result);
  return result.next;
}

/**
 * A path of this site: one slash, then neither a second slash nor a backslash (browsers read `/\host`
 * as `//host`, another site), and no control characters (browsers drop tabs and newlines from a URL,
 * so `/\t/host` would be `//host` too).
 */
export function isSameSitePath(path: string | null | undefined): path is string {
  if (typeof path !== 'string' || !/^\/(?![/\\])/.test(path)) return false;
  return ![...path].some((character) => character.charCodeAt(0) < 0x20 || character === '\u007f');
}

/** Where sign-in leads: the remembered route when it is a path of this app, else the course list. */
export function callbackTarget(callback: string | null): string {
  return isSameSitePath(callback) && callback !== LOGIN_PATH && !callback.startsWith(`${LOGIN_PATH}/`)
    ? callback
    : '/course';
}

/** Where sign-in leads, forgetting the remembered route. */
export function takeCallback(): string {
  const session = useSession.getState();
  const target = callbackTarget(session.callback);
  session.setCallback(null);
  return target;
}

/**
 * Where an institutional sign-in leads: the page the server says the person was going to when it is a
 * path of this site, else the remembered route or the course list. The remembered route is forgotten.
 */
export function takeSsoTarget(next: string | null): string {
  const remembered = takeCallback();
  return next !== null && callbackTarget(next) === next ? next : remembered;
}

/**
 * Logout: revoke this device's session on the server (best effort), then forget it here. Returns where
 * the browser goes next to end the university's session as well (SAML single logout), or null.
 */
export async function signOut(): Promise<string | null> {
  const { refreshToken } = useSession.getState();
  let ssoLogoutUrl: string | null = null;
  try {
    ssoLogoutUrl = (await logout(refreshToken)).sso_logout_url;
  } catch {
    // Signing out on this device must work offline too; the refresh token then expires on its own.
  }
  const session = useSession.getState();
  session.reset();
  session.setCallback(null);
  return ssoLogoutUrl !== null && /^https?:\/\//i.test(ssoLogoutUrl) ? ssoLogoutUrl : null;
}
