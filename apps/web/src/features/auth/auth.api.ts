import {
  DetailResponse,
  LoginResponse,
  LogoutResponse,
  RolesList,
  SsoExchangeResponse,
  SsoLinkInfo,
  UserInfo,
  type GoogleLoginRequest,
  type LoginRequest,
  type PasswordChangeRequest,
  type PasswordResetConfirmRequest,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

export function loginWithEmail(body: LoginRequest) {
  return apiCall('loginWithEmail', 'POST', '/Auth/Email/Login/', {
    body,
    auth: false,
    response: LoginResponse,
  });
}

/** Google sign-in: the access token from Google's token client, exchanged for our own pair. */
export function loginWithGoogle(body: GoogleLoginRequest) {
  return apiCall('loginWithGoogle', 'POST', '/Auth/SocialLogin/Google/', {
    body,
    auth: false,
    response: LoginResponse,
  });
}

export function getUserInfo() {
  return apiCall('getUserInfo', 'GET', '/Auth/UserInfo/', { response: UserInfo });
}

/**
 * Revokes this device's refresh token on the server; `sso_logout_url` is where to send the browser to end
 * the university's session too (SAML single logout), or null.
 */
export function logout(refresh: string | null) {
  return apiCall('logout', 'POST', '/Auth/Logout/', {
    body: refresh ? { refresh } : {},
    response: LogoutResponse,
  });
}

/** The one-time code a university sign-in hands to `/login/sso?code=`, exchanged for our own pair. */
export function exchangeSsoCode(code: string) {
  return apiCall('exchangeSsoCode', 'POST', '/Auth/Sso/Exchange/', {
    body: { code },
    auth: false,
    response: SsoExchangeResponse,
  });
}

/** Whose account a first university sign-in would be linked to (`/login/sso?link=`). */
export function getSsoLinkInfo(code: string) {
  return apiCall('getSsoLinkInfo', 'GET', '/Auth/Sso/Link/', {
    query: { code },
    auth: false,
    response: SsoLinkInfo,
  });
}

/** Links the university identity to the account whose password this is, and signs in. */
export function linkSsoIdentity(code: string, password: string) {
  return apiCall('linkSsoIdentity', 'POST', '/Auth/Sso/Link/', {
    body: { code, password },
    auth: false,
    response: SsoExchangeResponse,
  });
}

export function changePassword(body: PasswordChangeRequest) {
  return apiCall('changePassword', 'POST', '/Auth/password/change/', { body, response: DetailResponse });
}

export function confirmPasswordReset(body: PasswordResetConfirmRequest) {
  return apiCall('confirmPasswordReset', 'POST', '/Auth/password/reset/confirm/', {
    body,
    auth: false,
    response: DetailResponse,
  });
}

export function listRoles() {
  return apiCall('listRoles', 'GET', '/Auth/RolesList/', { response: RolesList });
}
