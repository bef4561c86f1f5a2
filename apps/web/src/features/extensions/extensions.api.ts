import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ExtensionAuditPage,
  ExtensionList,
  type ExtensionGrant,
  type ExtensionKind,
  type ExtensionRevoke,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';
import { gradebookKeys } from '../assessment/gradebook.api.ts';

/** Narrows the list to one kind, one item or one student; the page asks for the whole course. */
export interface ExtensionFilter {
  kind?: ExtensionKind;
  item_id?: number;
  user_id?: number;
}

/** Which student's extension for which item: the path of a revoke. */
export interface ExtensionTarget {
  kind: ExtensionKind;
  item_id: number;
  user_id: number;
}

export function listExtensions(courseId: number, filter: ExtensionFilter = {}, signal?: AbortSignal) {
  return apiCall('listExtensions', 'GET', '/Course/{id}/extensions/', {
    path: { id: courseId },
    query: { ...filter },
    response: ExtensionList,
    signal,
  });
}

/** Answers the rows granted; a student granted again has their dates replaced. */
export function grantExtension(courseId: number, body: ExtensionGrant) {
  return apiCall('grantExtension', 'POST', '/Course/{id}/extensions/', {
    path: { id: courseId },
    body,
    response: ExtensionList,
  });
}

/** The reason is kept in the audit row of the revocation. */
export function revokeExtension(courseId: number, target: ExtensionTarget, body: ExtensionRevoke) {
  return apiCall('revokeExtension', 'DELETE', '/Course/{id}/extensions/{kind}/{item_id}/{user_id}/', {
    path: { id: courseId, ...target },
    body,
  });
}

export function listExtensionAudit(
  courseId: number,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
) {
  return apiCall('listExtensionAudit', 'GET', '/Course/{id}/extensions/audit/', {
    path: { id: courseId },
    query: { ...page },
    response: ExtensionAuditPage,
    signal,
  });
}

export const extensionKeys = {
  course: (courseId: number) => ['extensions', courseId] as const,
  list: (courseId: number, filter: ExtensionFilter) =>
    [...extensionKeys.course(courseId), 'list', filter] as const,
  audit: (courseId: number, page: { limit: number; offset: number }) =>
    [...extensionKeys.course(courseId), 'audit', page] as const,
};

export function extensionsQuery(courseId: number, filter: ExtensionFilter = {}) {
  return queryOptions({
    queryKey: extensionKeys.list(courseId, filter),
    queryFn: ({ signal }) => listExtensions(courseId, filter, signal),
  });
}

export function extensionAuditQuery(courseId: number, page: { limit: number; offset: number }) {
  return queryOptions({
    queryKey: extensionKeys.audit(courseId, page),
    queryFn: ({ signal }) => listExtensionAudit(courseId, page, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * Grant and revoke. Both change the list, the audit log and the gradebook's marks and missing flags, so
 * each refreshes all three.
 */
export function useExtensionMutations(courseId: number) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: extensionKeys.course(courseId) }),
      queryClient.invalidateQueries({ queryKey: gradebookKeys.book(courseId) }),
    ]);
  const grant = useMutation({
    mutationFn: (body: ExtensionGrant) => grantExtension(courseId, body),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: ({ target, reason }: { target: ExtensionTarget; reason: string }) =>
      revokeExtension(courseId, target, { reason }),
    onSuccess: refresh,
  });
  return { grant, revoke };
}
