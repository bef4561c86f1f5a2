import { call } from '../../../test/harness.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { hoursFromNow } from '../assignments/testing.ts';
import { createExtensionWorld, type ExtensionWorld } from './testing.ts';

/**
 * Every route of extensions × every kind of caller → the exact status: the course's editors and staff;
 * its student 403; an editor of another course 404 (apps/api/test/matrix.ts walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type Row = MatrixRow<ExtensionWorld, Caller>;

const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });
const base = (w: ExtensionWorld) => `/api/Course/${w.course.id}/extensions/`;
const grant = (w: ExtensionWorld) => ({
  kind: 'assignment',
  item_id: w.assignment.id,
  user_ids: [w.users.student.id],
  due_at: hoursFromNow(48).toISOString(),
  reason: 'Illness (certificate seen)',
});

const MATRIX: Row[] = [
  { method: 'GET', route: '/api/Course/{id}/extensions/', url: base, expected: manage(200) },
  {
    method: 'POST',
    route: '/api/Course/{id}/extensions/',
    url: base,
    body: grant,
    expected: manage(201),
  },
  {
    method: 'DELETE',
    route: '/api/Course/{id}/extensions/{kind}/{item_id}/{user_id}/',
    url: async (w, cell) => {
      // Granted by staff in this caller's own world, so that there is something to revoke.
      await call(cell.t, 'POST', base(w), { token: w.tokens.staff, body: grant(w) });
      return `${base(w)}assignment/${w.assignment.id}/${w.users.student.id}/`;
    },
    body: () => ({ reason: 'Granted by mistake' }),
    expected: manage(204),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/extensions/audit/',
    url: (w) => `${base(w)}audit/`,
    expected: manage(200),
  },
];

describeMatrix<ExtensionWorld, Caller>({
  title: 'extensions: authorization matrix',
  callers: ['anonymous', 'student', 'editor', 'otherEditor', 'staff'],
  world: createExtensionWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.includes('/extensions/'),
});
