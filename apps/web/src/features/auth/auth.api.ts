import {
  DetailResponse,
  LoginResponse,
  RolesList,
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

/** Revokes this device's refresh token on the server. */
export function logout(refresh: string | null) {
  return apiCall('logout', 'POST', '/Auth/Logout/', { body: refresh ? { refresh } : {} });
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
