import { CourseOverview } from '@kadai/contracts';
import { expect } from 'vitest';
import { createCourseWorld } from '../../../test/factories.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * The course home × every kind of caller → the exact status (apps/api/test/matrix.ts walks the rows):
 * members of the course get their view, an editor of another course 404, anonymous 401.
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createCourseWorld>>;

/** The view each member gets (the others are refused, and a refusal has no view). */
const VIEW: Partial<Record<Caller, string>> = { student: 'student', editor: 'editor', staff: 'editor' };

const MATRIX: MatrixRow<World, Caller>[] = [
  {
    method: 'GET',
    route: '/api/Course/{id}/overview/',
    url: (w) => `/api/Course/${w.course.id}/overview/`,
    expected: { anonymous: 401, student: 200, editor: 200, otherEditor: 404, staff: 200 },
    check: (answer, { caller }) => {
      if (answer.status === 200) expect(CourseOverview.parse(answer.body).view).toBe(VIEW[caller]);
    },
  },
];

describeMatrix<World, Caller>({
  title: 'course home: authorization matrix',
  callers: ['anonymous', 'student', 'editor', 'otherEditor', 'staff'],
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.startsWith('/api/Course/') && path.endsWith('/overview/'),
});
