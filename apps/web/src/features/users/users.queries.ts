import { queryOptions } from '@tanstack/react-query';
import { listRoles } from '../auth/auth.api.ts';
import { getUser } from './users.api.ts';

export const userKeys = {
  all: ['users'] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  roles: () => [...userKeys.all, 'roles'] as const,
};

export function userQuery(id: number) {
  return queryOptions({ queryKey: userKeys.detail(id), queryFn: () => getUser(id) });
}

export function rolesQuery() {
  return queryOptions({ queryKey: userKeys.roles(), queryFn: listRoles, staleTime: Infinity });
}
