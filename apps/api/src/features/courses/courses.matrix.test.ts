import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, documentedRoutes } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';

/**
 * Every route of courses and membership × every kind of caller → the exact status. Each cell gets a world
 * of its own, so a cell that deletes or changes something cannot decide another cell's answer.
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createCourseWorld>>;

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the OpenAPI document names it. */
  route: string;
  url: (w: World) => string;
  body?: (w: World) => unknown;
  expected: Record<Caller, number>;
}

const course = (w: World) => `/api/Course/${w.course.id}/`;
const editorList = (w: World) => `/api/EditorList/${w.course.id}/`;
const studentList = (w: World) => `/api/StudentList/${w.course.id}/`;
// The other course's editor is a real user who is on neither list of this course.
const someone = (w: World) => ({ user_ids: [w.users.otherEditor.id] });

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
    method: 'DELETE',
    route: '/api/EditorList/{course_id}/',
    url: editorList,
    body: (w) => ({ user_ids: [w.users.editor.id] }),
    expected: { anonymous: 401, student: 403, editor: 403, otherEditor: 404, staff: 200 },
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
    method: 'DELETE',
    route: '/api/StudentList/{course_id}/',
    url: studentList,
    body: (w) => ({ user_ids: [w.users.student.id] }),
    expected: { anonymous: 401, student: 403, editor: 200, otherEditor: 404, staff: 200 },
  },
];

const CALLERS: Caller[] = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'];
const OWN_PREFIXES = ['/api/Course/', '/api/EditorList/', '/api/StudentList/'];

describe('courses and membership: authorization matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has a row for every route of the feature', async () => {
    expect(await documentedRoutes(t, (path) => OWN_PREFIXES.some((p) => path.startsWith(p)))).toEqual(
      MATRIX.map((r) => `${r.method} ${r.route}`).sort(),
    );
  });

  for (const row of MATRIX) {
    it(`${row.method} ${row.route}`, async () => {
      const actual: Record<string, number> = {};
      for (const caller of CALLERS) {
        const world = await createCourseWorld(t);
        const res = await call(t, row.method, row.url(world), {
          token: world.tokens[caller],
          body: row.body?.(world),
        });
        actual[caller] = res.status;
      }
      expect(actual).toEqual(row.expected);
    });
  }
});
