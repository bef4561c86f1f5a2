import { expect } from 'vitest';
import { createWorkbookWorld, STARTER } from './testing.ts';
import { toIpynb } from './ipynb.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of workbooks × every kind of caller → the exact status (the student owns the session
 * and the notebook); apps/api/test/matrix.ts walks the rows.
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createWorkbookWorld>>;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'];
const read = { anonymous: 401, student: 200, editor: 200, otherEditor: 404, staff: 200 };
const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });
/** The student's own session or notebook: managers read it, only the owner writes (managers 403). */
const ownerWrites = (ok: number) => ({
  anonymous: 401,
  student: ok,
  editor: 403,
  otherEditor: 404,
  staff: 403,
});

const session = (w: World) => `/api/v1/workbook/${w.session.id}`;
const notebook = (w: World) => `/api/v1/workbook/notebook/${w.notebook.id}`;
const config = (w: World) => `/api/WorkbookConfig/${w.config.id}/`;

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/WorkbookConfig/',
    url: (w) => `/api/WorkbookConfig/?course=${w.course.id}`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/WorkbookConfig/',
    url: () => '/api/WorkbookConfig/',
    body: (w) => ({ course: w.course.id, name: 'Lab 2' }),
    expected: manage(201),
  },
  { method: 'GET', route: '/api/WorkbookConfig/{id}/', url: config, expected: read },
  {
    method: 'PATCH',
    route: '/api/WorkbookConfig/{id}/',
    url: config,
    body: () => ({ name: 'Renamed' }),
    expected: manage(200),
  },
  { method: 'DELETE', route: '/api/WorkbookConfig/{id}/', url: config, expected: manage(204) },
  {
    method: 'POST',
    route: '/api/v1/workbook',
    url: () => '/api/v1/workbook',
    body: (w) => ({ course: w.course.id, config: w.config.id }),
    // The student already has a live session in the course: 409; managers open their own.
    expected: { anonymous: 401, student: 409, editor: 201, otherEditor: 404, staff: 201 },
  },
  {
    method: 'GET',
    route: '/api/v1/workbook/course/{courseId}',
    url: (w) => `/api/v1/workbook/course/${w.course.id}`,
    expected: read,
  },
  { method: 'GET', route: '/api/v1/workbook/{workbookId}', url: session, expected: read },
  {
    method: 'DELETE',
    route: '/api/v1/workbook/{workbookId}',
    url: session,
    expected: { anonymous: 401, student: 204, editor: 204, otherEditor: 404, staff: 204 },
  },
  {
    method: 'POST',
    route: '/api/v1/workbook/{workbookId}/extend',
    url: (w) => `${session(w)}/extend`,
    body: () => ({ minutes: 15 }),
    expected: ownerWrites(200),
  },
  {
    method: 'POST',
    route: '/api/v1/workbook/{workbookId}/execute',
    url: (w) => `${session(w)}/execute`,
    body: () => ({ cell_id: 'first', code: '1 + 1' }),
    expected: ownerWrites(200),
  },
  {
    method: 'POST',
    route: '/api/v1/workbook/{workbookId}/restart',
    url: (w) => `${session(w)}/restart`,
    expected: ownerWrites(200),
  },
  {
    method: 'POST',
    route: '/api/v1/workbook/{workbookId}/interrupt',
    url: (w) => `${session(w)}/interrupt`,
    // Nothing runs in the session: the owner is told so.
    expected: ownerWrites(200),
    check: (answer) => {
      if (answer.status === 200) expect(answer.body).toEqual({ interrupted: false });
    },
  },
  {
    method: 'GET',
    route: '/api/v1/workbook/notebook',
    url: (w) => `/api/v1/workbook/notebook?course=${w.course.id}&config=${w.config.id}`,
    expected: read,
  },
  {
    method: 'PUT',
    route: '/api/v1/workbook/notebook/{notebookId}',
    url: notebook,
    body: (w) => ({ version: w.notebook.version, notebook: STARTER }),
    expected: ownerWrites(200),
  },
  {
    method: 'GET',
    route: '/api/v1/workbook/notebook/{notebookId}/ipynb',
    url: (w) => `${notebook(w)}/ipynb`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/v1/workbook/notebook/{notebookId}/ipynb',
    url: (w) => `${notebook(w)}/ipynb`,
    body: () => toIpynb(STARTER, { name: 'Lab' }),
    expected: ownerWrites(200),
  },
];

describeMatrix<World, Caller>({
  title: 'workbooks: authorization matrix',
  callers: CALLERS,
  world: createWorkbookWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.startsWith('/api/WorkbookConfig') || path.startsWith('/api/v1/workbook'),
});
