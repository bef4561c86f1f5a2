import { addStudent, createCourseWorld, createUser } from '../../../test/factories.ts';
import { call, type TestApp } from '../../../test/harness.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every privacy route × every kind of caller → the exact status: a person's own exports for every
 * signed-in caller (someone else's export is 404, staff included); erasure and its audit for staff
 * only. An erasure changes the world, so its row gives each caller a world of its own.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

/** The course world, an export the student asked for, and a person staff may erase. */
async function createPrivacyWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const asked = await call(t, 'POST', '/api/Privacy/exports/', { token: world.tokens.student });
  if (asked.status !== 202) throw new Error(`export: ${asked.status}`);
  const leaver = await createUser(t);
  await addStudent(t, world.course.id, leaver.id);
  return { ...world, exportId: Number(asked.json.id), leaver };
}
type World = Awaited<ReturnType<typeof createPrivacyWorld>>;
type Row = MatrixRow<World, Caller>;

const signedIn = (ok: number): Record<Caller, number> => ({
  anonymous: 401,
  student: ok,
  editor: ok,
  staff: ok,
});
const staffOnly = (ok: number): Record<Caller, number> => ({
  anonymous: 401,
  student: 403,
  editor: 403,
  staff: ok,
});

const MATRIX: Row[] = [
  {
    method: 'POST',
    route: '/api/Privacy/exports/',
    case: 'the student has one pending',
    url: () => '/api/Privacy/exports/',
    expected: { anonymous: 401, student: 409, editor: 202, staff: 202 },
  },
  {
    method: 'GET',
    route: '/api/Privacy/exports/',
    url: () => '/api/Privacy/exports/',
    expected: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/Privacy/exports/{id}/',
    case: "the student's",
    url: (w) => `/api/Privacy/exports/${w.exportId}/`,
    expected: { anonymous: 401, student: 200, editor: 404, staff: 404 },
  },
  {
    method: 'POST',
    route: '/api/Privacy/users/{id}/erase/',
    fresh: true,
    url: (w) => `/api/Privacy/users/${w.leaver.id}/erase/`,
    body: (w) => ({ confirm_email: w.leaver.email }),
    expected: staffOnly(200),
  },
  {
    method: 'POST',
    route: '/api/Privacy/users/{id}/erase/',
    case: 'unknown person',
    url: () => '/api/Privacy/users/2147483647/erase/',
    body: () => ({ confirm_email: 'nobody@example.test' }),
    expected: staffOnly(404),
  },
  {
    method: 'GET',
    route: '/api/Privacy/erasures/',
    url: () => '/api/Privacy/erasures/',
    expected: staffOnly(200),
  },
];

describeMatrix<World, Caller>({
  title: 'privacy routes × callers',
  callers: CALLERS,
  world: createPrivacyWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.startsWith('/api/Privacy/'),
});
