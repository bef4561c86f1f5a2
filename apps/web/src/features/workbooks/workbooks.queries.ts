import { queryOptions } from '@tanstack/react-query';
import {
  getMyNotebook,
  getWorkbookConfig,
  getWorkbookSession,
  listWorkbookConfigs,
  listWorkbookSessions,
} from './workbooks.api.ts';

export const workbookKeys = {
  all: ['workbooks'] as const,
  course: (courseId: number) => [...workbookKeys.all, 'course', courseId] as const,
  configs: (courseId: number) => [...workbookKeys.course(courseId), 'configs'] as const,
  config: (configId: number) => [...workbookKeys.all, 'config', configId] as const,
  sessions: (courseId: number) => [...workbookKeys.course(courseId), 'sessions'] as const,
  session: (workbookId: number) => [...workbookKeys.all, 'session', workbookId] as const,
  notebook: (courseId: number, configId: number) =>
    [...workbookKeys.course(courseId), 'notebook', configId] as const,
};

/** Sessions and kernels come and go on the server: lists are re-read every minute while shown. */
const SESSION_REFRESH_MS = 60_000;

export function workbookConfigsQuery(courseId: number) {
  return queryOptions({
    queryKey: workbookKeys.configs(courseId),
    queryFn: ({ signal }) => listWorkbookConfigs(courseId, signal),
  });
}

export function workbookConfigQuery(configId: number) {
  return queryOptions({
    queryKey: workbookKeys.config(configId),
    queryFn: ({ signal }) => getWorkbookConfig(configId, signal),
  });
}

export function workbookSessionsQuery(courseId: number) {
  return queryOptions({
    queryKey: workbookKeys.sessions(courseId),
    queryFn: ({ signal }) => listWorkbookSessions(courseId, signal),
    refetchInterval: SESSION_REFRESH_MS,
  });
}

export function workbookSessionQuery(workbookId: number) {
  return queryOptions({
    queryKey: workbookKeys.session(workbookId),
    queryFn: ({ signal }) => getWorkbookSession(workbookId, signal),
    refetchInterval: (query) => (query.state.data?.status === 'live' ? SESSION_REFRESH_MS : false),
  });
}

/**
 * The caller's notebook of a configuration. Read once per visit: from then on the page holds the
 * document and writes it back, so a background refetch must never replace what is being edited.
 */
export function myNotebookQuery(courseId: number, configId: number) {
  return queryOptions({
    queryKey: workbookKeys.notebook(courseId, configId),
    queryFn: ({ signal }) => getMyNotebook(courseId, configId, signal),
    staleTime: Infinity,
  });
}
