import {
  WorkbookExecute,
  WorkbookNotebookSave,
  type Notebook,
  type WorkbookConfig,
  type WorkbookExecution,
  type WorkbookNotebook,
  type WorkbookSession,
} from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';
import { course } from '../forum/forum-fixtures.ts';

/** Test data and a fake workbook API for the page tests. */

/** Now when called: a worker's files share this module (isolate: false). */
const at = (minutesFromNow: number) => new Date(Date.now() + minutesFromNow * 60_000).toISOString();

export function config(fields: Partial<WorkbookConfig> = {}): WorkbookConfig {
  return {
    id: 3,
    course: 1,
    name: 'Intro to pandas',
    description: 'Load a **CSV** and explore it.',
    lifetime_minutes: 60,
    max_extension_minutes: 60,
    memory_mb: 512,
    cpu_seconds: 600,
    starter: { cells: [] },
    created_at: at(-600),
    updated_at: at(-600),
    ...fields,
  };
}

export function session(fields: Partial<WorkbookSession> = {}): WorkbookSession {
  return {
    workbookId: 7,
    courseId: 1,
    configId: 3,
    userId: 4,
    notebookId: 11,
    status: 'live',
    created_at: at(-10),
    expires_at: at(50),
    ended_at: null,
    extended_minutes: 0,
    max_extension_minutes: 60,
    memory_mb: 512,
    cpu_seconds: 600,
    kernel_alive: true,
    ...fields,
  };
}

export const starter: Notebook = {
  cells: [
    { id: 'intro', cell_type: 'markdown', source: '# Pandas\n\nRun the cell below.' },
    { id: 'load', cell_type: 'code', source: 'print("hello")\ndf', execution_count: null, outputs: [] },
  ],
};

export function notebook(fields: Partial<WorkbookNotebook> = {}): WorkbookNotebook {
  return {
    id: 11,
    courseId: 1,
    configId: 3,
    userId: 4,
    name: 'Intro to pandas',
    notebook: starter,
    version: 1,
    updated_at: at(-5),
    ...fields,
  };
}

export interface FakeWorkbook {
  role: 'student' | 'editor';
  configs: WorkbookConfig[];
  sessions: WorkbookSession[];
  notebook: WorkbookNotebook;
  /** Answers of the execute calls, in order (`kernel_restarted` false unless given). */
  executions: (Omit<WorkbookExecution, 'cell_id' | 'kernel_restarted'> & { kernel_restarted?: boolean })[];
  /** The next save answers 409 stale_notebook. */
  staleOnSave?: boolean;
  /** Execute calls answer only once this settles (a cell that keeps running). */
  running?: Promise<void>;
  /** Called by `POST …/interrupt`, which answers `{ interrupted: true }`. */
  onInterrupt?: () => void;
}

/** Answers the calls of the Workbook page from `state` (saves and new sessions change it). */
export function workbookServer(state: FakeWorkbook) {
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    const method = request.method;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(state.role));
    if (path === '/api/WorkbookConfig/' && method === 'GET') {
      return json(200, {
        count: state.configs.length,
        can_manage: state.role === 'editor',
        results: state.configs,
      });
    }
    const configMatch = /^\/api\/WorkbookConfig\/(\d+)\/$/.exec(path);
    if (configMatch) {
      const found = state.configs.find((c) => c.id === Number(configMatch[1]));
      return found ? json(200, found) : json(404, { detail: 'Not found.', code: 'not_found' });
    }
    if (path === '/api/v1/workbook' && method === 'POST') {
      const opened = session({ workbookId: 8, created_at: new Date().toISOString() });
      state.sessions.unshift(opened);
      return json(201, opened);
    }
    if (path === '/api/v1/workbook/course/1') return json(200, { results: state.sessions });
    if (path === '/api/v1/workbook/notebook' && method === 'GET') return json(200, state.notebook);
    if (path === `/api/v1/workbook/notebook/${state.notebook.id}` && method === 'PUT') {
      if (state.staleOnSave) return json(409, { detail: 'Saved elsewhere.', code: 'stale_notebook' });
      // Parsed with the contract: a save the page sends must be one the API accepts.
      const body = WorkbookNotebookSave.parse(request.body);
      state.notebook = { ...state.notebook, notebook: body.notebook, version: state.notebook.version + 1 };
      return json(200, state.notebook);
    }
    const executeMatch = /^\/api\/v1\/workbook\/(\d+)\/execute$/.exec(path);
    if (executeMatch && method === 'POST') {
      const body = WorkbookExecute.parse(request.body);
      return (state.running ?? Promise.resolve()).then(() => {
        const answer = state.executions.shift();
        return answer
          ? json(200, { kernel_restarted: false, ...answer, cell_id: body.cell_id })
          : json(409, { detail: 'Ended.', code: 'session_ended' });
      });
    }
    if (/^\/api\/v1\/workbook\/(\d+)\/interrupt$/.test(path) && method === 'POST') {
      state.onInterrupt?.();
      return json(200, { interrupted: true });
    }
    const sessionMatch = /^\/api\/v1\/workbook\/(\d+)$/.exec(path);
    if (sessionMatch) {
      const found = state.sessions.find((s) => s.workbookId === Number(sessionMatch[1]));
      return found ? json(200, found) : json(404, { detail: 'Not found.', code: 'not_found' });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
