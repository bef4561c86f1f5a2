import { createAssignmentWorld, hoursFromNow, importBundle, minimalBundle, upload } from './testing.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of assignments, attachments, test cases and downloads × every kind of caller → the exact
 * status (apps/api/test/matrix.ts walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createAssignmentWorld>>;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'otherStudent', 'editor', 'otherEditor', 'staff'];

/** Who sees the assignment: its course's student (read only), its course's editor and staff. */
const read = { anonymous: 401, student: 200, otherStudent: 404, editor: 200, otherEditor: 404, staff: 200 };
const manage = (ok: number) => ({
  anonymous: 401,
  student: 403,
  otherStudent: 404,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});

const one = (w: World) => `/api/Assignment/${w.assignment.id}/`;
const inCourse = (w: World) => `/api/Assignment/${w.assignment.id}/${w.course.id}`;
const dates = (w: World) => ({
  course_id: w.course.id,
  opens_at: hoursFromNow(-24).toISOString(),
  due_at: hoursFromNow(24).toISOString(),
});
const replacement = (w: World) => ({
  title: 'Sum of two numbers',
  statement: 'Read two numbers, print their sum.',
  starter_code: '',
  entry_file: 'main.py',
  required_files: [],
  allowed_extensions: ['.py'],
  max_files: 2,
  max_file_bytes: 10_000,
  reference_solution: '',
  courses: [dates(w)],
});
const newTest = { name: 'Adds', stdin: '1 2\n', expected_stdout: '3\n' };

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/Assignment/',
    url: () => '/api/Assignment/',
    expected: { anonymous: 401, student: 200, otherStudent: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/Assignment/',
    url: () => '/api/Assignment/',
    body: (w) => ({ title: 'New', courses: [dates(w)] }),
    expected: { anonymous: 401, student: 403, otherStudent: 403, editor: 201, otherEditor: 403, staff: 201 },
  },
  {
    method: 'GET',
    route: '/api/Assignment/CourseSpecific/',
    url: (w) => `/api/Assignment/CourseSpecific/?course_id=${w.course.id}`,
    expected: read,
  },
  { method: 'GET', route: '/api/Assignment/{id}/', url: one, expected: read },
  { method: 'PUT', route: '/api/Assignment/{id}/', url: one, body: replacement, expected: manage(200) },
  {
    method: 'PATCH',
    route: '/api/Assignment/{id}/',
    url: one,
    body: () => ({ title: 'Renamed' }),
    expected: manage(200),
  },
  { method: 'DELETE', route: '/api/Assignment/{id}/', url: one, expected: manage(204) },
  {
    method: 'GET',
    route: '/api/Assignment/{id}/CourseSpecificDetail/',
    url: (w) => `${one(w)}CourseSpecificDetail/?course_id=${w.course.id}`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/Assignment/{id}/total_score/',
    url: (w) => `${one(w)}total_score/?course_id=${w.course.id}`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/Assignment/{assignment_id}/{course_id}/FileUpload/',
    url: (w) => `${inCourse(w)}/FileUpload/`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/Assignment/{assignment_id}/{course_id}/FileUpload/',
    // A name per caller: attaching the same name twice is a conflict (409).
    send: (w, token, { t, caller }) =>
      upload(t, `${inCourse(w)}/FileUpload/`, token, [{ filename: `notes-${caller}.txt`, content: 'hello' }]),
    expected: manage(201),
  },
  {
    method: 'DELETE',
    route: '/api/Assignment/{assignment_id}/{course_id}/FileUpload/{id}/',
    url: (w) => `${inCourse(w)}/FileUpload/${w.file.id}/`,
    expected: manage(204),
  },
  {
    method: 'GET',
    route: '/api/Assignment/{assignment_id}/{course_id}/export/',
    url: (w) => `${inCourse(w)}/export/`,
    expected: manage(200),
  },
  {
    // Like `POST Assignment/`: editors of the course and staff; anyone else 403, whatever they see.
    method: 'POST',
    route: '/api/Assignment/import/{course_id}/',
    send: (w, token, { t }) => importBundle(t, w.course.id, token, minimalBundle()),
    expected: { anonymous: 401, student: 403, otherStudent: 403, editor: 201, otherEditor: 403, staff: 201 },
  },
  {
    method: 'GET',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/',
    url: (w) => `${inCourse(w)}/TestCase/`,
    expected: read,
  },
  {
    method: 'POST',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/',
    url: (w) => `${inCourse(w)}/TestCase/`,
    body: () => newTest,
    expected: manage(201),
  },
  {
    method: 'POST',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/reorder/',
    url: (w) => `${inCourse(w)}/TestCase/reorder/`,
    body: (w) => ({ ids: [w.testCase.id] }),
    expected: manage(200),
  },
  {
    method: 'POST',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/run-reference/',
    url: (w) => `${inCourse(w)}/TestCase/run-reference/`,
    body: () => ({}),
    expected: manage(202),
  },
  {
    method: 'GET',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/{id}/',
    url: (w) => `${inCourse(w)}/TestCase/${w.testCase.id}/`,
    expected: read,
  },
  {
    method: 'PUT',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/{id}/',
    url: (w) => `${inCourse(w)}/TestCase/${w.testCase.id}/`,
    body: () => newTest,
    expected: manage(200),
  },
  {
    method: 'PATCH',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/{id}/',
    url: (w) => `${inCourse(w)}/TestCase/${w.testCase.id}/`,
    body: () => ({ points: 5 }),
    expected: manage(200),
  },
  {
    method: 'DELETE',
    route: '/api/Assignment/{assignment_id}/{course_id}/TestCase/{id}/',
    url: (w) => `${inCourse(w)}/TestCase/${w.testCase.id}/`,
    expected: manage(204),
  },
  {
    // The signed token is the credential: whoever holds a valid link may download, signed in or not.
    method: 'GET',
    route: '/api/Download/{token}',
    url: (w) => w.file.url,
    expected: { anonymous: 200, student: 200, otherStudent: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
];

const OWN_PREFIXES = ['/api/Assignment/', '/api/Download/'];

describeMatrix<World, Caller>({
  title: 'assignments, attachments, test cases, downloads: authorization matrix',
  callers: CALLERS,
  world: createAssignmentWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => OWN_PREFIXES.some((p) => path.startsWith(p)),
});
