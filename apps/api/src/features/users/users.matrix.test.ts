import { createCourseWorld, TEST_PASSWORD, type TestUser } from '../../../test/factories.ts';
import { describeMatrix, type Cell as MatrixCell, type MatrixRow } from '../../../test/matrix.ts';
import { findUserById } from './users.repo.ts';
import { createSetPasswordLink } from '../auth/set-password-link.ts';
import { signIn } from '../auth/testing.ts';

/**
 * Every auth and users route × every kind of caller → the exact status (apps/api/test/matrix.ts walks
 * the rows). A caller signs out, changes the password of and deletes only their own account, so a row's
 * callers share a world; a DELETE gets a world per caller.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];
type World = Awaited<ReturnType<typeof createCourseWorld>>;

type Cell = MatrixCell<World, Caller>;
type Route = MatrixRow<World, Caller>;

/** The caller's own account (the student's for anonymous, who has none). */
const self = (c: Cell): TestUser =>
  c.caller === 'anonymous' ? c.world.users.student : c.world.users[c.caller];

const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  student: status,
  editor: status,
  otherEditor: status,
  staff: status,
});
const signedIn = (status: number): Record<Caller, number> => ({ ...everyone(status), anonymous: 401 });
const staffOnly = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  student: 403,
  editor: 403,
  otherEditor: 403,
  staff: status,
});
/** Auth/User/{student}/: the student themself and staff; everyone else is told it does not exist. */
const studentOrStaff = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  student: status,
  editor: 404,
  otherEditor: 404,
  staff: status,
});

const NEW_PASSWORD = 'amber-willow-harbor-63';
const student = (c: Cell) => c.world.users.student;

const ROUTES: Route[] = [
  {
    method: 'POST',
    route: '/api/Auth/Token/',
    url: () => '/api/Auth/Token/',
    body: (_, c) => ({ email: student(c).email, password: TEST_PASSWORD }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/Email/Login/',
    url: () => '/api/Auth/Email/Login/',
    body: (_, c) => ({ email: student(c).email, password: 'wrong-password-55' }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    route: '/api/Auth/Token/Refresh/',
    url: () => '/api/Auth/Token/Refresh/',
    body: async (_, c) => ({ refresh: (await signIn(c.t, student(c))).refresh }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/Logout/',
    url: () => '/api/Auth/Logout/',
    body: () => ({}),
    expected: signedIn(200),
  },
  { method: 'GET', route: '/api/Auth/UserInfo/', url: () => '/api/Auth/UserInfo/', expected: signedIn(200) },
  {
    method: 'GET',
    route: '/api/Auth/RolesList/',
    url: () => '/api/Auth/RolesList/',
    expected: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/password/change/',
    url: () => '/api/Auth/password/change/',
    body: () => ({ old_password: TEST_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD }),
    expected: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/Auth/password/reset/confirm/',
    url: () => '/api/Auth/password/reset/confirm/',
    body: async (_, c) => {
      const link = createSetPasswordLink(c.t.config, (await findUserById(c.t.ctx.db, student(c).id))!);
      return { uid: link.uid, token: link.token, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD };
    },
    expected: everyone(200),
  },
  { method: 'GET', route: '/api/Auth/User/', url: () => '/api/Auth/User/', expected: staffOnly(200) },
  {
    method: 'POST',
    route: '/api/Auth/User/',
    url: () => '/api/Auth/User/',
    body: (_, c) => ({ email: `new-${self(c).id}-${Date.now()}@example.test` }),
    expected: staffOnly(201),
  },
  {
    method: 'POST',
    route: '/api/Auth/User/{id}/set-password-link/',
    case: 'student',
    url: (_, c) => `/api/Auth/User/${student(c).id}/set-password-link/`,
    expected: staffOnly(200),
  },
  {
    method: 'GET',
    route: '/api/Auth/User/{id}/',
    case: 'student',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    expected: studentOrStaff(200),
  },
  {
    method: 'PATCH',
    route: '/api/Auth/User/{id}/',
    case: 'student · names',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ first_name: 'Renamed' }),
    expected: studentOrStaff(200),
  },
  {
    method: 'PATCH',
    route: '/api/Auth/User/{id}/',
    case: 'student · is_staff',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ is_staff: true }),
    expected: { ...studentOrStaff(200), student: 403 },
  },
  {
    method: 'PATCH',
    route: '/api/Auth/User/{id}/',
    case: 'student · roles',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ roles: ['instructor'] }),
    expected: { ...studentOrStaff(200), student: 403 },
  },
  {
    method: 'PUT',
    route: '/api/Auth/User/{id}/',
    case: 'student',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ first_name: 'Put', last_name: 'Name', display_lang: 'en-US' }),
    expected: studentOrStaff(200),
  },
  {
    method: 'DELETE',
    route: '/api/Auth/User/{id}/',
    case: 'student',
    url: (_, c) => `/api/Auth/User/${student(c).id}/`,
    expected: studentOrStaff(204),
  },
  {
    method: 'GET',
    route: '/api/Auth/User/{id}/',
    case: 'self',
    url: (_, c) => `/api/Auth/User/${self(c).id}/`,
    expected: signedIn(200),
  },
  {
    method: 'PATCH',
    route: '/api/Auth/User/{id}/',
    case: 'self · display_lang',
    url: (_, c) => `/api/Auth/User/${self(c).id}/`,
    body: () => ({ display_lang: 'en-US' }),
    expected: signedIn(200),
  },
  {
    method: 'DELETE',
    route: '/api/Auth/User/{id}/',
    case: 'self',
    url: (_, c) => `/api/Auth/User/${self(c).id}/`,
    expected: { ...signedIn(204), staff: 400 },
  },
  {
    method: 'GET',
    route: '/api/Auth/User/{id}/',
    case: 'editor of this course',
    url: (_, c) => `/api/Auth/User/${c.world.users.editor.id}/`,
    expected: { anonymous: 401, student: 404, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'GET',
    route: '/api/Auth/User/{id}/',
    case: 'unknown id',
    url: () => '/api/Auth/User/2147483647/',
    expected: signedIn(404),
  },
  {
    method: 'DELETE',
    route: '/api/Auth/User/{id}/',
    case: 'unknown id',
    url: () => '/api/Auth/User/2147483647/',
    expected: signedIn(404),
  },
];

// Social sign-in needs a (fake) identity provider: auth/google.matrix.test.ts walks it.
// Self-registration needs SELF_REGISTRATION on: auth/registration.matrix.test.ts walks it.
describeMatrix<World, Caller>({
  title: 'authorization matrix: auth and users routes',
  callers: CALLERS,
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: (path) =>
    path.startsWith('/api/Auth/') &&
    !path.startsWith('/api/Auth/SocialLogin/') &&
    // Institutional sign-in and identities: identity.matrix.test.ts.
    !/^\/api\/Auth\/(Sso|Saml|Oidc)\//.test(path) &&
    !path.includes('/identities/') &&
    path !== '/api/Auth/Email/Registration/',
});
