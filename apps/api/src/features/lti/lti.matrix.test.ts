import { expect } from 'vitest';
import { createCourseWorld } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { browserRequest, describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { insertAssignment } from '../assessment/testing.ts';
import {
  insertContext,
  insertDeepLinkRequest,
  insertLineItem,
  insertPlatform,
  insertSignInCode,
  unique,
} from './testing.ts';

/**
 * LTI × every kind of caller → the exact status. The LMS's browser steps are public: a token changes
 * nothing, and junk (an unknown issuer, state, code or registration token) is a 4xx, never a 5xx.
 * An LMS course is seen by the instructor who launched from it (and staff); a deep-linking request
 * only by the instructor who made it.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

async function world(t: TestApp) {
  const base = await createCourseWorld(t);
  const platform = await insertPlatform(t);
  // The roster of this LMS course lives at a port nobody listens on: the sync is a 502.
  const linked = await insertContext(t, platform, {
    courseId: base.course.id,
    instructorId: base.users.editor.id,
    membershipsUrl: 'http://127.0.0.1:9/memberships',
  });
  const unlinked = await insertContext(t, platform, { instructorId: base.users.editor.id });
  const assignment = await insertAssignment(t, base.course.id, 7, [5, 5]);
  const lineItem = await insertLineItem(
    t,
    linked.id,
    'assignment',
    assignment.id,
    `${platform.issuer}/lineitems/${unique()}`,
  );
  const deepLink = await insertDeepLinkRequest(t, platform.id, base.users.editor.id, linked.id);
  return { ...base, platform, linked, unlinked, assignment, lineItem, deepLink };
}
type World = Awaited<ReturnType<typeof world>>;
type Route = MatrixRow<World, Caller>;

const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  student: status,
  editor: status,
  otherEditor: status,
  staff: status,
});
const staffOnly = (status: number): Record<Caller, number> => ({
  ...everyone(403),
  anonymous: 401,
  staff: status,
});
/** The instructor who launched from the LMS course, and staff; the rest are told it does not exist. */
const instructorOrStaff = (status: number): Record<Caller, number> => ({
  ...everyone(404),
  anonymous: 401,
  editor: status,
  staff: status,
});
/** Editors of the course and staff; a student of it 403, anyone else 404. */
const managers = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  student: 403,
  editor: status,
  otherEditor: 404,
  staff: status,
});

const PLATFORM = '/api/Lti/Platform/{id}/';
const platformUrl = (w: World) => `/api/Lti/Platform/${w.platform.id}/`;

const ROUTES: Route[] = [
  { method: 'GET', route: '/api/Lti/Platform/', url: () => '/api/Lti/Platform/', expected: staffOnly(200) },
  {
    method: 'POST',
    route: '/api/Lti/Platform/',
    url: () => '/api/Lti/Platform/',
    body: () => {
      const issuer = `https://new-${unique()}.example`;
      return {
        name: 'New LMS',
        issuer,
        client_id: 'abc',
        auth_url: `${issuer}/auth`,
        token_url: `${issuer}/token`,
        jwks_url: `${issuer}/jwks`,
        deployment_ids: ['1'],
      };
    },
    expected: staffOnly(201),
  },
  {
    method: 'PATCH',
    route: PLATFORM,
    url: platformUrl,
    body: () => ({ name: 'Renamed LMS' }),
    expected: staffOnly(200),
  },
  { method: 'DELETE', route: PLATFORM, url: platformUrl, fresh: true, expected: staffOnly(204) },
  { method: 'GET', route: '/api/Lti/Tool/', url: () => '/api/Lti/Tool/', expected: staffOnly(200) },
  {
    method: 'POST',
    route: '/api/Lti/Tool/rotate-key/',
    url: () => '/api/Lti/Tool/rotate-key/',
    expected: staffOnly(200),
  },
  {
    method: 'POST',
    route: '/api/Lti/Registration/',
    url: () => '/api/Lti/Registration/',
    expected: staffOnly(201),
  },
  {
    method: 'GET',
    route: '/api/Lti/login/',
    case: 'a registered platform',
    send: (w, token, c) =>
      browserRequest(
        c.t,
        token,
        'GET',
        `/api/Lti/login/?iss=${encodeURIComponent(w.platform.issuer)}&login_hint=u1&target_link_uri=${encodeURIComponent('http://localhost/api/Lti/launch/')}`,
      ),
    expected: everyone(302),
    check: ({ body }, c) =>
      expect((body as { location: string }).location.startsWith(`${c.world.platform.issuer}/auth?`)).toBe(
        true,
      ),
  },
  {
    method: 'GET',
    route: '/api/Lti/login/',
    case: 'an unknown issuer',
    send: (_, token, c) =>
      browserRequest(
        c.t,
        token,
        'GET',
        '/api/Lti/login/?iss=https%3A%2F%2Fnobody.example&login_hint=u&target_link_uri=x',
      ),
    expected: everyone(404),
  },
  {
    method: 'POST',
    route: '/api/Lti/login/',
    case: 'no login_hint',
    send: (w, token, c) => browserRequest(c.t, token, 'POST', '/api/Lti/login/', { iss: w.platform.issuer }),
    expected: everyone(400),
  },
  {
    method: 'POST',
    route: '/api/Lti/launch/',
    case: 'junk id_token and state',
    send: (_, token, c) =>
      browserRequest(c.t, token, 'POST', '/api/Lti/launch/', { id_token: 'junk', state: 'junk' }),
    expected: everyone(401),
  },
  { method: 'GET', route: '/api/Lti/jwks/', url: () => '/api/Lti/jwks/', expected: everyone(200) },
  {
    method: 'GET',
    route: '/api/Lti/canvas.json',
    url: () => '/api/Lti/canvas.json',
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/Lti/register/',
    case: 'an unknown registration token',
    url: () => '/api/Lti/register/',
    query: () => ({
      token: 'junk',
      openid_configuration: 'https://lms.example/.well-known/openid-configuration',
    }),
    expected: everyone(410),
  },
  {
    method: 'POST',
    route: '/api/Lti/Exchange/',
    case: 'a fresh launch code',
    url: () => '/api/Lti/Exchange/',
    body: async (w, c) => ({ code: await insertSignInCode(c.t, w.platform.id, w.users.student.id) }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Lti/Exchange/',
    case: 'junk code',
    url: () => '/api/Lti/Exchange/',
    body: () => ({ code: 'junk' }),
    expected: everyone(410),
  },
  {
    method: 'GET',
    route: '/api/Lti/Link/',
    url: () => '/api/Lti/Link/',
    query: () => ({ code: 'junk' }),
    expected: everyone(410),
  },
  {
    method: 'POST',
    route: '/api/Lti/Link/',
    case: 'junk code',
    url: () => '/api/Lti/Link/',
    body: () => ({ code: 'junk', password: 'whatever-it-is' }),
    expected: everyone(410),
  },
  {
    method: 'GET',
    route: '/api/Lti/Context/{id}/',
    url: (w) => `/api/Lti/Context/${w.unlinked.id}/`,
    expected: instructorOrStaff(200),
  },
  {
    method: 'POST',
    route: '/api/Lti/Context/{id}/',
    case: 'a new course',
    fresh: true,
    url: (w) => `/api/Lti/Context/${w.unlinked.id}/`,
    body: () => ({ title: 'From the LMS' }),
    expected: instructorOrStaff(200),
  },
  {
    method: 'GET',
    route: '/api/Lti/DeepLink/{id}/',
    url: (w) => `/api/Lti/DeepLink/${w.deepLink}/`,
    expected: { ...everyone(404), anonymous: 401, editor: 200 },
  },
  {
    method: 'POST',
    route: '/api/Lti/DeepLink/{id}/',
    fresh: true,
    url: (w) => `/api/Lti/DeepLink/${w.deepLink}/`,
    body: (w) => ({ items: [{ kind: 'assignment', id: w.assignment.id }] }),
    expected: { ...everyone(404), anonymous: 401, editor: 200 },
  },
  {
    method: 'GET',
    route: '/api/Lti/Course/{course_id}/',
    url: (w) => `/api/Lti/Course/${w.course.id}/`,
    expected: managers(200),
  },
  {
    method: 'POST',
    route: '/api/Lti/Course/{course_id}/roster-sync/',
    case: 'an LMS that cannot be reached',
    url: (w) => `/api/Lti/Course/${w.course.id}/roster-sync/`,
    body: (w) => ({ context_id: w.linked.id }),
    expected: managers(502),
  },
  {
    method: 'POST',
    route: '/api/Lti/LineItem/{id}/resend/',
    url: (w) => `/api/Lti/LineItem/${w.lineItem.id}/resend/`,
    expected: managers(200),
  },
];

describeMatrix<World, Caller>({
  title: 'authorization matrix: LTI',
  callers: CALLERS,
  world,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: (path) => path.startsWith('/api/Lti/'),
  app: { jobs: true },
});
