import { createAssessmentWorld } from './testing.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of assessment analysis × every kind of caller → the exact status. `student` is a student
 * of the course asking about themself (their own feedback and workshop); apps/api/test/matrix.ts walks
 * the rows (a DELETE gets a world per caller).
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createAssessmentWorld>>;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'];

/** Members (and the student about themself) read; outsiders 404. */
const read = { anonymous: 401, student: 200, editor: 200, otherEditor: 404, staff: 200 };
/** Editors of the course and staff; the student 403 (their own item or the course's tools). */
const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });

const base = '/api/assessment';
const me = (w: World) => `${w.course.id}/${w.users.s1.id}`;
const withCourse = (path: string) => (w: World) => `${base}${path}?course=${w.course.id}`;
const skill = (w: World) => `${base}/Skill/${w.skills.loops.id}/`;
const feedback = (w: World) => `${base}/Feedback/${w.feedback.id}/`;
const workshop = (w: World) => `${base}/Workshop/${w.workshop.id}/`;

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/Course/{id}/gradebook/',
    url: (w) => `/api/Course/${w.course.id}/gradebook/`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/gradebook/csv/',
    url: (w) => `/api/Course/${w.course.id}/gradebook/csv/`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/assessment/Existence/Course/{course_id}',
    url: (w) => `${base}/Existence/Course/${w.course.id}`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/assessment/{course_id}',
    url: (w) => `${base}/${w.course.id}`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/assessment/{course_id}/{user_id}',
    url: (w) => `${base}/${me(w)}`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/assessment/histogram/assignment/{course_id}/{user_id}/{assignment_id}',
    url: (w) => `${base}/histogram/assignment/${me(w)}/${w.work.a1.id}`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/assessment/histogram/skill/{course_id}/{user_id}/{skill_name}',
    url: (w) => `${base}/histogram/skill/${me(w)}/Loops`,
    expected: read,
  },
  { method: 'GET', route: '/api/assessment/Skill/', url: withCourse('/Skill/'), expected: manage(200) },
  {
    method: 'GET',
    route: '/api/assessment/Skill/catalogue',
    url: withCourse('/Skill/catalogue'),
    expected: manage(200),
  },
  {
    method: 'POST',
    route: '/api/assessment/Skill/',
    url: () => `${base}/Skill/`,
    // A name of its own per call: a second 'Recursion' would be a 409.
    body: (w) => ({ course: w.course.id, name: `Recursion ${Math.random()}`, skill_type: 'programming' }),
    expected: manage(201),
  },
  {
    method: 'PATCH',
    route: '/api/assessment/Skill/{id}/',
    url: skill,
    body: () => ({ skill_type: 'core' }),
    expected: manage(200),
  },
  {
    method: 'PUT',
    route: '/api/assessment/Skill/{id}/items',
    url: (w) => `${skill(w)}items`,
    body: (w) => ({ assignments: [w.work.a2.id], test_cases: [], quiz_questions: [] }),
    expected: manage(200),
  },
  { method: 'DELETE', route: '/api/assessment/Skill/{id}/', url: skill, expected: manage(204) },
  {
    method: 'GET',
    route: '/api/assessment/Feedback/',
    url: (w) => `${base}/Feedback/?course=${w.course.id}&user=${w.users.s1.id}`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/assessment/Feedback/',
    url: () => `${base}/Feedback/`,
    body: (w) => ({ course: w.course.id, user: w.users.s1.id, body: 'Well done.' }),
    expected: manage(201),
  },
  {
    method: 'PATCH',
    route: '/api/assessment/Feedback/{id}/',
    url: feedback,
    body: () => ({ body: 'Edited.' }),
    expected: manage(200),
  },
  {
    method: 'DELETE',
    route: '/api/assessment/Feedback/{id}/',
    url: feedback,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: '/api/assessment/Workshop/',
    url: (w) => `${base}/Workshop/?course=${w.course.id}`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/assessment/Workshop/',
    url: () => `${base}/Workshop/`,
    body: (w) => ({
      course: w.course.id,
      title: 'Extra session',
      starts_at: '2030-01-10T10:00:00Z',
      ends_at: '2030-01-10T11:00:00Z',
      participants: [{ user: w.users.s1.id, status: 'invited' }],
    }),
    expected: manage(201),
  },
  {
    method: 'PATCH',
    route: '/api/assessment/Workshop/{id}/',
    url: workshop,
    body: () => ({ location: 'Room 3' }),
    expected: manage(200),
  },
  {
    method: 'DELETE',
    route: '/api/assessment/Workshop/{id}/',
    url: workshop,
    expected: manage(204),
  },
];

describeMatrix<World, Caller>({
  title: 'assessment: authorization matrix',
  callers: CALLERS,
  world: createAssessmentWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.startsWith('/api/assessment') || path.includes('/gradebook/'),
});
