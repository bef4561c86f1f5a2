import { SetPasswordLink, User, type UserUpdate } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

export function getUser(id: number | null | undefined) {
  return apiCall('getUser', 'GET', '/Auth/User/{id}/', { path: { id }, response: User });
}

export function updateUser(id: number | null | undefined, body: UserUpdate) {
  return apiCall('updateUser', 'PATCH', '/Auth/User/{id}/', { path: { id }, body, response: User });
}

export function createSetPasswordLink(id: number | null | undefined) {
  return apiCall('createSetPasswordLink', 'POST', '/Auth/User/{id}/set-password-link/', {
    path: { id },
    response: SetPasswordLink,
  });
}
