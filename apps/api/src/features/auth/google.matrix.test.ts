import { expect } from 'vitest';
import { createCourseWorld, type TestUser } from '../../../test/factories.ts';
import { describeMatrix, type Cell, type MatrixRow } from '../../../test/matrix.ts';
import { FAKE_GOOGLE_CLIENT_ID, fakeGoogleToken, startFakeGoogle } from '../../../test/fake-google.ts';

/**
 * Social sign-in routes × every kind of caller → the exact status, against the fake Google. The
 * routes are public: a caller already signed in (with a token in the header) signs in afresh as
 * whoever the Google token names, exactly like an anonymous visitor.
 */
const CALLERS = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'] as const;
type Caller = (typeof CALLERS)[number];

type World = Awaited<ReturnType<typeof createCourseWorld>>;
type Route = MatrixRow<World, Caller>;

/** The caller's own account (the student's for anonymous, who has none). */
const self = (c: Cell<World, Caller>): TestUser =>
  c.caller === 'anonymous' ? c.world.users.student : c.world.users[c.caller];
let subjects = 0;
/** A Google account never seen before. */
const subject = () => `matrix-${Date.now().toString(36)}-${subjects++}`;
/** A successful sign-in names the caller's own account. */
const signsInAsSelf = (answer: { body?: unknown }, c: Cell<World, Caller>) =>
  expect((answer.body as { user?: unknown }).user).toEqual({ pk: self(c).id, email: self(c).email });

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
    route: GOOGLE,
    url: () => GOOGLE,
    case: 'own verified Google account',
    // Each cell links a new Google account; anonymous and student both sign in as the student.
    fresh: true,
    body: (_, c) => ({
      access_token: fakeGoogleToken({ sub: subject(), email: self(c).email, email_verified: true }),
    }),
    expected: everyone(200),
    check: signsInAsSelf,
  },
  {
    method: 'POST',
    route: GOOGLE,
    url: () => GOOGLE,
    case: 'unverified Google e-mail',
    body: (_, c) => ({
      access_token: fakeGoogleToken({ sub: subject(), email: self(c).email, email_verified: false }),
    }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    route: GOOGLE,
    url: () => GOOGLE,
    case: 'a token Google rejects',
    body: () => ({ access_token: 'ya29.rejected' }),
    expected: everyone(401),
  },
  {
    method: 'POST',
    route: GOOGLE,
    url: () => GOOGLE,
    case: 'no access_token',
    body: () => ({}),
    expected: everyone(400),
  },
];

describeMatrix<World, Caller>({
  title: 'authorization matrix: social sign-in routes',
  callers: CALLERS,
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: (path) => path.startsWith('/api/Auth/SocialLogin/'),
  app: async () => {
    const fake = await startFakeGoogle();
    return {
      app: {
        env: {
          GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
          GOOGLE_USERINFO_URL: fake.userinfoUrl,
          GOOGLE_TOKENINFO_URL: fake.tokeninfoUrl,
          // Every cell comes from the same address; this matrix is not about throttling.
          LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
        },
      },
      close: () => fake.close(),
    };
  },
});
