import {
  DetailResponse,
  type RegistrationRequest,
  type ResendEmailRequest,
  type VerifyEmailRequest,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

export function registerWithEmail(body: RegistrationRequest) {
  return apiCall('registerWithEmail', 'POST', '/Auth/Email/Registration/', {
    body,
    auth: false,
    response: DetailResponse,
  });
}

export function verifyEmail(body: VerifyEmailRequest) {
  return apiCall('verifyEmail', 'POST', '/Registration/verify-email/', {
    body,
    auth: false,
    response: DetailResponse,
  });
}

export function resendVerificationEmail(body: ResendEmailRequest) {
  return apiCall('resendVerificationEmail', 'POST', '/Registration/resend-email/', {
    body,
    auth: false,
    response: DetailResponse,
  });
}
