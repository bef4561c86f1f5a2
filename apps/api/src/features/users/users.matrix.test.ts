import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, documentedRoutes } from '../../../test/harness.ts';
import { createCourseWorld, TEST_PASSWORD, tokenFor, type TestUser } from '../../../test/factories.ts';
import { findUserById } from './users.repo.ts';
import { createSetPasswordLink } from '../auth/set-password-link.ts';
import { signIn } from '../auth/testing.ts';

/**
 * Every auth and users route × every kind of caller → the exact status. Each cell gets a fresh world
 * (and a fresh session), so a cell that signs out, changes a password or deletes an account cannot
 * change the answer of another.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];
type World = Awaited<ReturnType<typeof createCourseWorld>>;

interface Cell {
  t: TestApp;
  world: World;
  /** The caller's own account (the student's for anonymous, who has none). */
  self: TestUser;
}

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the OpenAPI document names it, so the last test can check that no route was left out. */
  path: string;
  /** Which case of the route this row walks. */
  target?: string;
  url: (cell: Cell) => string;
  body?: (cell: Cell) => unknown;
  expected: Record<Caller, number>;
}

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
const student = (cell: Cell) => cell.world.users.student;

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/api/Auth/Token/',
    url: () => '/api/Auth/Token/',
    body: (c) => ({ email: student(c).email, password: TEST_PASSWORD }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    path: '/api/Auth/Email/Login/',
    url: () => '/api/Auth/Email/Login/',
    body: (c) => ({ email: student(c).email, password: 'wrong-password-55' }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    path: '/api/Auth/Token/Refresh/',
    url: () => '/api/Auth/Token/Refresh/',
    body: async (c) => ({ refresh: (await signIn(c.t, student(c))).refresh }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    path: '/api/Auth/Logout/',
    url: () => '/api/Auth/Logout/',
    body: () => ({}),
    expected: signedIn(200),
  },
  { method: 'GET', path: '/api/Auth/UserInfo/', url: () => '/api/Auth/UserInfo/', expected: signedIn(200) },
  { method: 'GET', path: '/api/Auth/RolesList/', url: () => '/api/Auth/RolesList/', expected: signedIn(200) },
  {
    method: 'POST',
    path: '/api/Auth/password/change/',
    url: () => '/api/Auth/password/change/',
    body: () => ({ new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD }),
    expected: signedIn(200),
  },
  {
    method: 'POST',
    path: '/api/Auth/password/reset/confirm/',
    url: () => '/api/Auth/password/reset/confirm/',
    body: async (c) => {
      const link = createSetPasswordLink(c.t.config, (await findUserById(c.t.ctx.db, student(c).id))!);
      return { uid: link.uid, token: link.token, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD };
    },
    expected: everyone(200),
  },
  { method: 'GET', path: '/api/Auth/User/', url: () => '/api/Auth/User/', expected: staffOnly(200) },
  {
    method: 'POST',
    path: '/api/Auth/User/',
    url: () => '/api/Auth/User/',
    body: (c) => ({ email: `new-${c.self.id}-${Date.now()}@example.test` }),
    expected: staffOnly(201),
  },
  {
    method: 'POST',
    path: '/api/Auth/User/{id}/set-password-link/',
    target: 'student',
    url: (c) => `/api/Auth/User/${student(c).id}/set-password-link/`,
    expected: staffOnly(200),
  },
  {
    method: 'GET',
    path: '/api/Auth/User/{id}/',
    target: 'student',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    expected: studentOrStaff(200),
  },
  {
    method: 'PATCH',
    path: '/api/Auth/User/{id}/',
    target: 'student · names',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ first_name: 'Renamed' }),
    expected: studentOrStaff(200),
  },
  {
    method: 'PATCH',
    path: '/api/Auth/User/{id}/',
    target: 'student · is_staff',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ is_staff: true }),
    expected: { ...studentOrStaff(200), student: 403 },
  },
  {
    method: 'PATCH',
    path: '/api/Auth/User/{id}/',
    target: 'student · roles',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ roles: ['instructor'] }),
    expected: { ...studentOrStaff(200), student: 403 },
  },
  {
    method: 'PUT',
    path: '/api/Auth/User/{id}/',
    target: 'student',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    body: () => ({ first_name: 'Put', last_name: 'Name', display_lang: 'en-US' }),
    expected: studentOrStaff(200),
  },
  {
    method: 'DELETE',
    path: '/api/Auth/User/{id}/',
    target: 'student',
    url: (c) => `/api/Auth/User/${student(c).id}/`,
    expected: studentOrStaff(204),
  },
  {
    method: 'GET',
    path: '/api/Auth/User/{id}/',
    target: 'self',
    url: (c) => `/api/Auth/User/${c.self.id}/`,
    expected: signedIn(200),
  },
  {
    method: 'PATCH',
    path: '/api/Auth/User/{id}/',
    target: 'self · display_lang',
    url: (c) => `/api/Auth/User/${c.self.id}/`,
    body: () => ({ display_lang: 'en-US' }),
    expected: signedIn(200),
  },
  {
    method: 'DELETE',
    path: '/api/Auth/User/{id}/',
    target: 'self',
    url: (c) => `/api/Auth/User/${c.self.id}/`,
    expected: { ...signedIn(204), staff: 400 },
  },
  {
    method: 'GET',
    path: '/api/Auth/User/{id}/',
    target: 'editor of this course',
    url: (c) => `/api/Auth/User/${c.world.users.editor.id}/`,
    expected: { anonymous: 401, student: 404, editor: 200, otherEditor: 404, staff: 200 },
  },
  {
    method: 'GET',
    path: '/api/Auth/User/{id}/',
    target: 'unknown id',
    url: () => '/api/Auth/User/2147483647/',
    expected: signedIn(404),
  },
  {
    method: 'DELETE',
    path: '/api/Auth/User/{id}/',
    target: 'unknown id',
    url: () => '/api/Auth/User/2147483647/',
    expected: signedIn(404),
  },
];

describe('authorization matrix: auth and users routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cases = ROUTES.flatMap((route) =>
    CALLERS.map((caller) => ({
      name: `${route.method} ${route.path}${route.target ? ` (${route.target})` : ''} as ${caller}`,
      route,
      caller,
      status: route.expected[caller],
    })),
  );

  it.each(cases)('$name → $status', async ({ route, caller, status }) => {
    const world = await createCourseWorld(t);
    const self: TestUser = caller === 'anonymous' ? world.users.student : world.users[caller];
    const token = caller === 'anonymous' ? undefined : await tokenFor(t, self);
    const cell: Cell = { t, world, self };
    const res = await call(t, route.method, route.url(cell), {
      token,
      body: route.body ? await route.body(cell) : undefined,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });

  it('walks every auth and users route the API registers', async () => {
    // Social sign-in needs a (fake) identity provider: auth/google.matrix.test.ts walks it.
    // Self-registration needs SELF_REGISTRATION on: auth/registration.matrix.test.ts walks it.
    const registered = await documentedRoutes(
      t,
      (path) =>
        path.startsWith('/api/Auth/') &&
        !path.startsWith('/api/Auth/SocialLogin/') &&
        path !== '/api/Auth/Email/Registration/',
    );
    const walked = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(registered.length).toBeGreaterThanOrEqual(walked.size);
    for (const route of registered) expect(walked, route).toContain(route);
  });
});
