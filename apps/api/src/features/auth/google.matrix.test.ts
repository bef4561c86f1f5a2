import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, documentedRoutes, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld, tokenFor, type TestUser } from '../../../test/factories.ts';
import {
  FAKE_GOOGLE_CLIENT_ID,
  fakeGoogleToken,
  startFakeGoogle,
  type FakeGoogle,
} from '../../../test/fake-google.ts';

/**
 * Social sign-in routes × every kind of caller → the exact status, against the fake Google. The
 * routes are public: a caller already signed in (with a token in the header) signs in afresh as
 * whoever the Google token names, exactly like an anonymous visitor.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

interface Cell {
  /** The caller's own account (the student's for anonymous, who has none). */
  self: TestUser;
  subject: string;
}

interface Route {
  method: 'POST';
  path: string;
  target: string;
  body: (cell: Cell) => unknown;
  expected: Record<Caller, number>;
}

const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  student: status,
  editor: status,
  otherEditor: status,
  staff: status,
});

const GOOGLE = '/api/Auth/SocialLogin/Google/';

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: GOOGLE,
    target: 'own verified Google account',
    body: (c) => ({
      access_token: fakeGoogleToken({ sub: c.subject, email: c.self.email, email_verified: true }),
    }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    path: GOOGLE,
    target: 'unverified Google e-mail',
    body: (c) => ({
      access_token: fakeGoogleToken({ sub: c.subject, email: c.self.email, email_verified: false }),
    }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    path: GOOGLE,
    target: 'a token Google rejects',
    body: () => ({ access_token: 'ya29.rejected' }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    path: GOOGLE,
    target: 'no access_token',
    body: () => ({}),
    expected: everyone(400),
  },
];

describe('authorization matrix: social sign-in routes', () => {
  let fake: FakeGoogle;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeGoogle();
    t = await createTestApp({
      env: {
        GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
        GOOGLE_USERINFO_URL: fake.userinfoUrl,
        GOOGLE_TOKENINFO_URL: fake.tokeninfoUrl,
        // Every cell comes from the same address; this matrix is not about throttling.
        LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const cases = ROUTES.flatMap((route) =>
    CALLERS.map((caller) => ({
      name: `${route.method} ${route.path} (${route.target}) as ${caller}`,
      route,
      caller,
      status: route.expected[caller],
    })),
  );

  let subjects = 0;
  it.each(cases)('$name → $status', async ({ route, caller, status }) => {
    const world = await createCourseWorld(t);
    const self: TestUser = caller === 'anonymous' ? world.users.student : world.users[caller];
    const token = caller === 'anonymous' ? undefined : await tokenFor(t, self);
    const cell: Cell = { self, subject: `matrix-${Date.now().toString(36)}-${subjects++}` };
    const res = await call(t, route.method, route.path, { token, body: route.body(cell) });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 200) expect(res.json.user).toEqual({ pk: self.id, email: self.email });
  });

  it('walks every social sign-in route the API registers', async () => {
    const registered = await documentedRoutes(t, (path) => path.startsWith('/api/Auth/SocialLogin/'));
    const walked = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(registered.length).toBeGreaterThanOrEqual(1);
    for (const route of registered) expect(walked, route).toContain(route);
  });
});
