import { PublicConfig, type PublicIdentityProvider } from '@kadai/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export const DEFAULT_PRODUCT_NAME = 'Kadai';
// One empty list each, so a page reading them before the answer arrives sees the same value every render.
const NO_PROVIDERS: PublicIdentityProvider[] = [];
const NO_DOMAINS: string[] = [];

export function getPublicConfig() {
  return apiCall('getPublicConfig', 'GET', '/Config/', { auth: false, response: PublicConfig });
}

/**
 * Product name, Google client id, provider site and the institutions' sign-in buttons: read once per
 * page load.
 */
export function usePublicConfig() {
  const query = useQuery({ queryKey: ['config'], queryFn: getPublicConfig, staleTime: Infinity });
  return {
    productName: query.data?.product_name ?? DEFAULT_PRODUCT_NAME,
    googleClientId: query.data?.google_client_id ?? null,
    googleScriptUrl: query.data?.google_script_url ?? null,
    providerUrl: query.data?.provider_url ?? null,
    selfRegistration: query.data?.self_registration ?? false,
    identityProviders: query.data?.identity_providers ?? NO_PROVIDERS,
    passwordHiddenDomains: query.data?.password_hidden_domains ?? NO_DOMAINS,
    isLoading: query.isLoading,
  };
}
