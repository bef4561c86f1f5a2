import { expect, it } from 'vitest';
import { call, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld, createUser, testPasswordHash, tokenFor } from '../../../test/factories.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { createVerificationKey } from './registration-key.ts';
import { insertUser } from '../users/users.repo.ts';
import { insertEmails } from '../mail/mail.repo.ts';

/**
 * Self-registration and the outbox × every kind of caller → the exact status, with self-registration
 * on. The registration routes are public by nature; the outbox is for staff alone.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

type World = Awaited<ReturnType<typeof createCourseWorld>>;
type Route = MatrixRow<World, Caller>;

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
    passwordHash: await testPasswordHash(PASSWORD),
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
    route: '/api/Auth/Email/Registration/',
    url: () => '/api/Auth/Email/Registration/',
    body: () => ({ email: freshEmail(), password1: PASSWORD, password2: PASSWORD }),
    expected: everyone(201),
  },
  {
    method: 'POST',
    route: '/api/Registration/verify-email/',
    url: () => '/api/Registration/verify-email/',
    body: async (_, { t }) => ({ key: createVerificationKey(t.config, await pendingUser(t)) }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Registration/resend-email/',
    url: () => '/api/Registration/resend-email/',
    body: async (_, { t }) => ({ email: (await pendingUser(t)).email }),
    expected: everyone(200),
  },
  { method: 'GET', route: '/api/Mail/outbox/', url: () => '/api/Mail/outbox/', expected: staffOnly(200) },
  {
    method: 'GET',
    route: '/api/Mail/outbox/{id}/',
    case: 'an e-mail',
    url: async (_, { t }) => `/api/Mail/outbox/${await someEmailId(t)}/`,
    expected: staffOnly(200),
  },
  {
    method: 'GET',
    route: '/api/Mail/outbox/{id}/',
    case: 'unknown id',
    url: () => '/api/Mail/outbox/2147483647/',
    expected: staffOnly(404),
  },
];

const isOwn = (path: string) =>
  path === '/api/Auth/Email/Registration/' ||
  path.startsWith('/api/Registration/') ||
  path.startsWith('/api/Mail/');

describeMatrix<World, Caller>({
  title: 'authorization matrix: registration and outbox routes',
  callers: CALLERS,
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: isOwn,
  app: { env: { SELF_REGISTRATION: 'true' } },
  more: (api) => {
    it('answers a deactivated staff member 401', async () => {
      const t = api();
      const staff = await createUser(t, { isStaff: true, isActive: false });
      expect((await call(t, 'GET', '/api/Mail/outbox/', { token: await tokenFor(t, staff) })).status).toBe(
        401,
      );
    });
  },
});
