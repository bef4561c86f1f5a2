import type { Language, LoginResponse, UserInfo } from '@kadai/contracts';
import { getUserInfo, loginWithEmail, loginWithGoogle, logout } from './auth.api.ts';
import { useSession } from './session.ts';
import { updateUser } from '../users/users.api.ts';
import { LOGIN_PATH } from '../../api/client.ts';

/**
 * True once someone picks a language on this device while signed out (on the login page, say): that
 * choice then wins over the one saved in their account at sign-in, and is saved to the account.
 */
let languageChosenWhileSignedOut = false;

/** The header's language switcher: the interface follows at once; a signed-in account remembers it. */
export function chooseLanguage(language: Language): void {
  const session = useSession.getState();
  session.setDisplayLang(language);
  if (session.authToken === null) {
    languageChosenWhileSignedOut = true;
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
  if (languageChosenWhileSignedOut) {
    languageChosenWhileSignedOut = false;
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

/** Keeps the tokens, e-mail and user id of a sign-in, then post-login; a failure leaves it signed out. */
async function completeSignIn(result: LoginResponse): Promise<void> {
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

/** Where sign-in leads: the remembered route when it is a path of this app, else the course list. */
export function callbackTarget(callback: string | null): string {
  return callback && callback !== LOGIN_PATH && callback.startsWith('/') && !callback.startsWith('//')
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

/** Logout: revoke this device's session on the server (best effort), then forget it here. */
export async function signOut(): Promise<void> {
  const { refreshToken } = useSession.getState();
  try {
    await logout(refreshToken);
  } catch {
    // Signing out on this device must work offline too; the refresh token then expires on its own.
  }
  const session = useSession.getState();
  session.reset();
  session.setCallback(null);
}
