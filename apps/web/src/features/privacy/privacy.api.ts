import { DataExport, DataExportList, Erasure, type ErasureRequest } from '@kadai/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export const privacyKeys = {
  all: ['privacy'] as const,
  exports: () => [...privacyKeys.all, 'exports'] as const,
};

/** While an export is being prepared the list is read again every few seconds. */
const PREPARING_POLL_MS = 5000;

export function dataExportsQuery() {
  return queryOptions({
    queryKey: privacyKeys.exports(),
    queryFn: () => apiCall('listDataExports', 'GET', '/Privacy/exports/', { response: DataExportList }),
    refetchInterval: (query) =>
      query.state.data?.results.some((e) => e.status === 'pending' || e.status === 'running')
        ? PREPARING_POLL_MS
        : false,
  });
}

export function requestDataExport() {
  return apiCall('requestDataExport', 'POST', '/Privacy/exports/', { response: DataExport });
}

/** One export, with a download link made for this read (it works for a few minutes). */
export function getDataExport(id: number) {
  return apiCall('getDataExport', 'GET', '/Privacy/exports/{id}/', { path: { id }, response: DataExport });
}

export function erasePerson(id: number, body: ErasureRequest) {
  return apiCall('erasePerson', 'POST', '/Privacy/users/{id}/erase/', {
    path: { id },
    body,
    response: Erasure,
  });
}

/** The address an erasure leaves on the account (apps/api features/privacy/erasure.service.ts). */
export function isErasedEmail(email: string): boolean {
  return /^erased-\d+-[0-9a-f]+@erased\.invalid$/.test(email);
}
