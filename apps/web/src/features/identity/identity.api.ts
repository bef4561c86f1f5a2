import {
  IdentityProvider,
  IdentityProviderList,
  LinkedIdentity,
  LinkedIdentityList,
  ServiceProviderInfo,
  SignInSettings,
  type IdentityProviderCreate,
  type IdentityProviderPatch,
} from '@kadai/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

export const identityKeys = {
  all: ['identity'] as const,
  providers: () => [...identityKeys.all, 'providers'] as const,
  serviceProvider: () => [...identityKeys.all, 'sp'] as const,
  settings: () => [...identityKeys.all, 'settings'] as const,
  linked: (userId: number) => [...identityKeys.all, 'linked', userId] as const,
};

export function providersQuery() {
  return queryOptions({
    queryKey: identityKeys.providers(),
    queryFn: () =>
      apiCall('listIdentityProviders', 'GET', '/IdentityProvider/', { response: IdentityProviderList }),
  });
}

export function serviceProviderQuery() {
  return queryOptions({
    queryKey: identityKeys.serviceProvider(),
    queryFn: () =>
      apiCall('getServiceProviderInfo', 'GET', '/IdentityProvider/sp/', { response: ServiceProviderInfo }),
    staleTime: Infinity,
  });
}

export function signInSettingsQuery() {
  return queryOptions({
    queryKey: identityKeys.settings(),
    queryFn: () => apiCall('getSignInSettings', 'GET', '/SignInSettings/', { response: SignInSettings }),
  });
}

export function linkedIdentitiesQuery(userId: number) {
  return queryOptions({
    queryKey: identityKeys.linked(userId),
    queryFn: () =>
      apiCall('listLinkedIdentities', 'GET', '/Auth/User/{id}/identities/', {
        path: { id: userId },
        response: LinkedIdentityList,
      }),
  });
}

export function createProvider(body: IdentityProviderCreate) {
  return apiCall('createIdentityProvider', 'POST', '/IdentityProvider/', {
    body,
    response: IdentityProvider,
  });
}

export function updateProvider(id: Id, body: IdentityProviderPatch) {
  return apiCall('updateIdentityProvider', 'PATCH', '/IdentityProvider/{id}/', {
    path: { id },
    body,
    response: IdentityProvider,
  });
}

export function deleteProvider(id: Id) {
  return apiCall('deleteIdentityProvider', 'DELETE', '/IdentityProvider/{id}/', { path: { id } });
}

export function saveSignInSettings(body: SignInSettings) {
  return apiCall('updateSignInSettings', 'PUT', '/SignInSettings/', { body, response: SignInSettings });
}

export function linkIdentity(
  userId: Id,
  body: { provider_id: number; external_id: string; institutional_id?: string },
) {
  return apiCall('linkIdentity', 'POST', '/Auth/User/{id}/identities/', {
    path: { id: userId },
    body,
    response: LinkedIdentity,
  });
}

export function unlinkIdentity(userId: Id, identityId: Id) {
  return apiCall('unlinkIdentity', 'DELETE', '/Auth/User/{id}/identities/{identity_id}/', {
    path: { id: userId, identity_id: identityId },
  });
}
