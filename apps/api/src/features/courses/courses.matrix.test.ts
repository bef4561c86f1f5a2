import { expect } from 'vitest';
import type { MemberKind } from '@kadai/contracts';
import { pendingMembers } from '../../db/schema-identity.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { describeMatrix, type Answer, type Cell, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of courses and membership × every kind of caller → the exact status
 * (apps/api/test/matrix.ts walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createCourseWorld>>;

type Row = MatrixRow<World, Caller>;

const course = (w: World) => `/api/Course/${w.course.id}/`;
const editorList = (w: World) => `/api/EditorList/${w.course.id}/`;
const studentList = (w: World) => `/api/StudentList/${w.course.id}/`;
// The other course's editor is a real user who is on neither list of this course.
const someone = (w: World) => ({ user_ids: [w.users.otherEditor.id] });
// An institutional id nobody has signed in with: it is held as pending.
const byInstitutionalId = () => ({ institutional_ids: ['s2600001'] });
const removedOnePending = (answer: Answer) => {
  if (answer.status === 200) expect(answer.body).toEqual({ removed: 0, removed_pending: 1 });
};
/** A pending entry on the list, to remove. */
const pendingOn = (kind: MemberKind) => async (w: World, cell: Cell<World, Caller>) => {
  const [row] = await cell.t.ctx.db
    .insert(pendingMembers)
    .values({ courseId: w.course.id, kind, institutionalId: 's2600002' })
    .returning({ id: pendingMembers.id });
  return { pending_ids: [row!.id] };
};

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/Course/',
    url: () => '/api/Course/',
    expected: { anonymous: 401, student: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/Course/',
    url: () => '/api/Course/',
    body: () => ({ title: 'Operating Systems' }),
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 403, staff: 201 },
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/',
    url: course,
    expected: { anonymous: 401, student: 200, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'PUT',
    route: '/api/Course/{id}/',
    url: course,
    body: () => ({ title: 'Algorithms II', description: '', has_videos: true, has_assessment: false }),
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'PATCH',
    route: '/api/Course/{id}/',
    url: course,
    body: () => ({ has_assessment: true }),
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/Course/{id}/',
    url: course,
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 204 },
  },
  {
    method: 'GET',
    route: '/api/EditorList/{course_id}/',
    url: editorList,
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/EditorList/{course_id}/',
    url: editorList,
    body: someone,
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/EditorList/{course_id}/',
    case: 'institutional ids',
    url: editorList,
    body: byInstitutionalId,
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/EditorList/{course_id}/',
    url: editorList,
    body: (w) => ({ user_ids: [w.users.editor.id] }),
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/EditorList/{course_id}/',
    case: 'pending ids',
    url: editorList,
    body: pendingOn('editor'),
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 200 },
    check: removedOnePending,
  },
  {
    method: 'GET',
    route: '/api/StudentList/{course_id}/',
    url: studentList,
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/StudentList/{course_id}/',
    url: studentList,
    body: someone,
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/StudentList/{course_id}/',
    case: 'institutional ids',
    url: studentList,
    body: byInstitutionalId,
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/StudentList/{course_id}/',
    url: studentList,
    body: (w) => ({ user_ids: [w.users.student.id] }),
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/StudentList/{course_id}/',
    case: 'pending ids',
    url: studentList,
    body: pendingOn('student'),
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
    check: removedOnePending,
  },
];

describeMatrix<World, Caller>({
  title: 'courses and membership: authorization matrix',
  callers: ['anonymous', 'student', 'editor', 'otherEditor', 'staff'],
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  // The course home (`Course/{id}/overview/`) has its own matrix beside its feature (features/overview),
  // the gradebook (`Course/{id}/gradebook/`) in assessment's, extensions (`Course/{id}/extensions/`)
  // in features/extensions.
  owns: (path) =>
    ['/api/Course/', '/api/EditorList/', '/api/StudentList/'].some((p) => path.startsWith(p)) &&
    !path.endsWith('/overview/') &&
    !path.includes('/gradebook/') &&
    !path.includes('/extensions/') &&
    // The course's notification switches: notifications.matrix.test.ts.
    !path.endsWith('/notification-settings/') &&
    // The teacher's review and similarity reports: review.matrix.test.ts, similarity.matrix.test.ts.
    !/\/(assignments|saved-comments|regrade-requests)\//.test(path),
});
