import { PublicConfig } from '@kadai/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export const DEFAULT_PRODUCT_NAME = 'Kadai';

export function getPublicConfig() {
  return apiCall('getPublicConfig', 'GET', '/Config/', { auth: false, response: PublicConfig });
}

/** Product name, Google client id and provider site: read once per page load. */
export function usePublicConfig() {
  const query = useQuery({ queryKey: ['config'], queryFn: getPublicConfig, staleTime: Infinity });
  return {
    productName: query.data?.product_name ?? DEFAULT_PRODUCT_NAME,
    googleClientId: query.data?.google_client_id ?? null,
    googleScriptUrl: query.data?.google_script_url ?? null,
    providerUrl: query.data?.provider_url ?? null,
    selfRegistration: query.data?.self_registration ?? false,
    isLoading: query.isLoading,
  };
}
