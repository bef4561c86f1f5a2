import {
  WorkbookConfig,
  WorkbookConfigList,
  WorkbookExecution,
  WorkbookInterruptResult,
  WorkbookNotebook,
  WorkbookSession,
  WorkbookSessionList,
  type WorkbookConfigCreate,
  type WorkbookConfigUpdate,
  type WorkbookExecute,
  type WorkbookNotebookSave,
  type WorkbookStart,
} from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

type Id = number | null | undefined;

/* Configurations (editors write them; everyone in the course reads them). */

export function listWorkbookConfigs(courseId: Id, signal?: AbortSignal) {
  return apiCall('listWorkbookConfigs', 'GET', '/WorkbookConfig/', {
    query: { course: courseId },
    response: WorkbookConfigList,
    signal,
  });
}

export function getWorkbookConfig(id: Id, signal?: AbortSignal) {
  return apiCall('getWorkbookConfig', 'GET', '/WorkbookConfig/{id}/', {
    path: { id },
    response: WorkbookConfig,
    signal,
  });
}

export function createWorkbookConfig(body: WorkbookConfigCreate) {
  return apiCall('createWorkbookConfig', 'POST', '/WorkbookConfig/', { body, response: WorkbookConfig });
}

export function updateWorkbookConfig(id: Id, body: WorkbookConfigUpdate) {
  return apiCall('updateWorkbookConfig', 'PATCH', '/WorkbookConfig/{id}/', {
    path: { id },
    body,
    response: WorkbookConfig,
  });
}

export function deleteWorkbookConfig(id: Id) {
  return apiCall('deleteWorkbookConfig', 'DELETE', '/WorkbookConfig/{id}/', { path: { id } });
}

/* Sessions: a kernel for one person, for a while. */

export function startWorkbookSession(body: WorkbookStart) {
  return apiCall('startWorkbookSession', 'POST', '/v1/workbook', { body, response: WorkbookSession });
}

export function listWorkbookSessions(courseId: Id, signal?: AbortSignal) {
  return apiCall('listWorkbookSessions', 'GET', '/v1/workbook/course/{courseId}', {
    path: { courseId },
    response: WorkbookSessionList,
    signal,
  });
}

export function getWorkbookSession(workbookId: Id, signal?: AbortSignal) {
  return apiCall('getWorkbookSession', 'GET', '/v1/workbook/{workbookId}', {
    path: { workbookId },
    response: WorkbookSession,
    signal,
  });
}

export function endWorkbookSession(workbookId: Id) {
  return apiCall('endWorkbookSession', 'DELETE', '/v1/workbook/{workbookId}', { path: { workbookId } });
}

export function extendWorkbookSession(workbookId: Id, minutes: number) {
  return apiCall('extendWorkbookSession', 'POST', '/v1/workbook/{workbookId}/extend', {
    path: { workbookId },
    body: { minutes },
    response: WorkbookSession,
  });
}

export function executeCell(workbookId: Id, body: WorkbookExecute) {
  return apiCall('executeCell', 'POST', '/v1/workbook/{workbookId}/execute', {
    path: { workbookId },
    body,
    response: WorkbookExecution,
  });
}

export function interruptKernel(workbookId: Id) {
  return apiCall('interruptKernel', 'POST', '/v1/workbook/{workbookId}/interrupt', {
    path: { workbookId },
    response: WorkbookInterruptResult,
  });
}

export function restartKernel(workbookId: Id) {
  return apiCall('restartKernel', 'POST', '/v1/workbook/{workbookId}/restart', {
    path: { workbookId },
    response: WorkbookSession,
  });
}

/* Notebooks: the caller's own, one per configuration; they outlive sessions. */

export function getMyNotebook(courseId: Id, configId: Id, signal?: AbortSignal) {
  return apiCall('getMyNotebook', 'GET', '/v1/workbook/notebook', {
    query: { course: courseId, config: configId },
    response: WorkbookNotebook,
    signal,
  });
}

export function saveNotebook(notebookId: Id, body: WorkbookNotebookSave) {
  return apiCall('saveNotebook', 'PUT', '/v1/workbook/notebook/{notebookId}', {
    path: { notebookId },
    body,
    response: WorkbookNotebook,
  });
}

export function downloadNotebookIpynb(notebookId: Id) {
  return apiDownload('downloadNotebookIpynb', '/v1/workbook/notebook/{notebookId}/ipynb', {
    path: { notebookId },
    accept: 'application/x-ipynb+json, application/json',
  });
}

/**
 * Replaces the notebook with an uploaded `.ipynb`. The client sends JSON values, not text, so the file
 * is parsed in the browser first; the server reads and checks the nbformat itself.
 */
export function uploadNotebookIpynb(notebookId: Id, ipynb: unknown) {
  return apiCall('uploadNotebookIpynb', 'POST', '/v1/workbook/notebook/{notebookId}/ipynb', {
    path: { notebookId },
    body: ipynb,
    response: WorkbookNotebook,
  });
}
