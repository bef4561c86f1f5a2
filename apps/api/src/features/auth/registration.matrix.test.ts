import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, documentedRoutes, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { hashPassword } from './password-hash.ts';
import { createVerificationKey } from './registration-key.ts';
import { insertUser } from '../users/users.repo.ts';
import { insertEmails } from '../mail/mail.repo.ts';

/**
 * Self-registration and the outbox × every kind of caller → the exact status, with self-registration
 * on. The registration routes are public by nature; the outbox is for staff alone.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

interface Route {
  method: 'GET' | 'POST';
  path: string;
  target?: string;
  url: (t: TestApp) => Promise<string> | string;
  body?: (t: TestApp) => Promise<unknown> | unknown;
  expected: Record<Caller, number>;
}

const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  student: status,
  editor: status,
  otherEditor: status,
  staff: status,
});
const staffOnly = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  student: 403,
  editor: 403,
  otherEditor: 403,
  staff: status,
});

let counter = 0;
const freshEmail = () => `matrix-${Date.now().toString(36)}-${counter++}@example.edu`;
const PASSWORD = 'amber-willow-harbor-63';

async function pendingUser(t: TestApp) {
  return (await insertUser(t.ctx.db, {
    email: freshEmail(),
    passwordHash: await hashPassword(PASSWORD),
    isActive: false,
  }))!;
}

async function someEmailId(t: TestApp): Promise<number> {
  const user = await pendingUser(t);
  const [row] = await insertEmails(t.ctx.db, [
    {
      kind: 'verify_email',
      toAddress: user.email,
      toUserId: user.id,
      lang: 'ja',
      subject: 'S',
      textBody: 'B',
    },
  ]);
  return row!.id;
}

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/api/Auth/Email/Registration/',
    url: () => '/api/Auth/Email/Registration/',
    body: () => ({ email: freshEmail(), password1: PASSWORD, password2: PASSWORD }),
    expected: everyone(201),
  },
  {
    method: 'POST',
    path: '/api/Registration/verify-email/',
    url: () => '/api/Registration/verify-email/',
    body: async (t) => ({ key: createVerificationKey(t.config, await pendingUser(t)) }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    path: '/api/Registration/resend-email/',
    url: () => '/api/Registration/resend-email/',
    body: async (t) => ({ email: (await pendingUser(t)).email }),
    expected: everyone(200),
  },
  { method: 'GET', path: '/api/Mail/outbox/', url: () => '/api/Mail/outbox/', expected: staffOnly(200) },
  {
    method: 'GET',
    path: '/api/Mail/outbox/{id}/',
    target: 'an e-mail',
    url: async (t) => `/api/Mail/outbox/${await someEmailId(t)}/`,
    expected: staffOnly(200),
  },
  {
    method: 'GET',
    path: '/api/Mail/outbox/{id}/',
    target: 'unknown id',
    url: () => '/api/Mail/outbox/2147483647/',
    expected: staffOnly(404),
  },
];

const isOwn = (path: string) =>
  path === '/api/Auth/Email/Registration/' ||
  path.startsWith('/api/Registration/') ||
  path.startsWith('/api/Mail/');

describe('authorization matrix: registration and outbox routes', () => {
  let t: TestApp;
  let world: Awaited<ReturnType<typeof createCourseWorld>>;
  beforeAll(async () => {
    t = await createTestApp({ env: { SELF_REGISTRATION: 'true' } });
    world = await createCourseWorld(t);
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
    const token = caller === 'anonymous' ? undefined : await tokenFor(t, world.users[caller]);
    const res = await call(t, route.method, await route.url(t), {
      token,
      body: route.body ? await route.body(t) : undefined,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });

  it('answers a deactivated staff member 401', async () => {
    const staff = await createUser(t, { isStaff: true, isActive: false });
    expect((await call(t, 'GET', '/api/Mail/outbox/', { token: await tokenFor(t, staff) })).status).toBe(401);
  });

  it('walks every registration and outbox route the API registers', async () => {
    expect(await documentedRoutes(t, isOwn)).toEqual(
      [...new Set(ROUTES.map((r) => `${r.method} ${r.path}`))].sort(),
    );
  });
});
