import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { NOTIFICATION_KINDS, UnsubscribeResult } from '@kadai/contracts';
import { call, type TestApp } from '../../../test/harness.ts';
import { createCourse, createCourseWorld, createUser } from '../../../test/factories.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { courses, users } from '../../db/schema.ts';
import { notificationMutes, notificationProfiles } from '../../db/schema-notifications.ts';
import { signUnsubscribeToken, type UnsubscribeScope } from './unsubscribe-token.ts';

/**
 * The unsubscribe link × every kind of caller → the exact status. The link is public by nature (a mail
 * client posts it with no session): the token decides, whoever calls; a forged one is refused to all.
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

const PATH = '/api/Notification/unsubscribe/';
const tokenOf = (t: TestApp, userId: number, scope: UnsubscribeScope, secret = t.config.JWT_SECRET) =>
  signUnsubscribeToken(secret, { userId, scope, issuedAt: Math.floor(Date.now() / 1000) });
const FORGED_SECRET = 'not-the-server-secret-but-just-as-long-0123456789';

const ROUTES: Route[] = [
  {
    method: 'GET',
    route: PATH,
    case: "a student's link",
    url: () => PATH,
    query: (w, { t }) => ({ token: tokenOf(t, w.users.student.id, { type: 'kind', kind: 'announcement' }) }),
    expected: everyone(200),
    check: ({ body }) =>
      expect(UnsubscribeResult.parse(body)).toEqual({ kind: 'announcement', scope: 'kind' }),
  },
  {
    method: 'GET',
    route: PATH,
    case: 'a forged link',
    url: () => PATH,
    query: (w, { t }) => ({ token: tokenOf(t, w.users.student.id, { type: 'all' }, FORGED_SECRET) }),
    expected: everyone(400),
  },
  {
    method: 'POST',
    route: PATH,
    case: "a student's link",
    url: () => PATH,
    query: (w, { t }) => ({
      token: tokenOf(t, w.users.student.id, { type: 'course', courseId: w.course.id }),
    }),
    expected: everyone(200),
    check: ({ body }) => expect(UnsubscribeResult.parse(body)).toEqual({ kind: null, scope: 'course' }),
  },
  {
    method: 'POST',
    route: PATH,
    case: 'a forged link',
    url: () => PATH,
    query: (w, { t }) => ({ token: tokenOf(t, w.users.student.id, { type: 'all' }, FORGED_SECRET) }),
    expected: everyone(400),
    check: ({ body }) => expect(body).toMatchObject({ code: 'invalid_token' }),
  },
];

describeMatrix<World, Caller>({
  title: 'authorization matrix: the unsubscribe link',
  callers: CALLERS,
  world: createCourseWorld,
  token: (w, caller) => w.tokens[caller],
  rows: ROUTES,
  owns: (path) => path.startsWith('/api/Notification/unsubscribe'),
  more: (api) => {
    /** Everything an unsubscribe may change, to prove a refused one changed nothing. */
    const snapshot = async (t: TestApp) => ({
      profiles: await t.ctx.db.select().from(notificationProfiles).orderBy(notificationProfiles.userId),
      mutes: await t.ctx.db.select().from(notificationMutes),
    });
    const post = (t: TestApp, token: string, form?: { type: string; payload: string }) =>
      t.app.inject({
        method: 'POST',
        url: `${PATH}?token=${encodeURIComponent(token)}`,
        ...(form ? { headers: { 'content-type': form.type }, payload: form.payload } : {}),
      });
    const choicesOf = async (t: TestApp, userId: number) =>
      (await t.ctx.db.select().from(notificationProfiles).where(eq(notificationProfiles.userId, userId)))[0]
        ?.email;

    it('describes the link without changing a thing', async () => {
      const t = api();
      const user = await createUser(t);
      const before = await snapshot(t);
      const res = await call(t, 'GET', PATH, { query: { token: tokenOf(t, user.id, { type: 'all' }) } });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(UnsubscribeResult.parse(res.body)).toEqual({ kind: null, scope: 'all' });
      expect(await snapshot(t)).toEqual(before);
    });

    it('turns one kind off, keeping the other choices, however the body comes and however often', async () => {
      const t = api();
      const user = await createUser(t);
      await t.ctx.db
        .insert(notificationProfiles)
        .values({ userId: user.id, email: { forum_reply: 'immediately' }, digestHour: 18 });
      const token = tokenOf(t, user.id, { type: 'kind', kind: 'deadline_soon' });
      const bodies = [
        { type: 'application/x-www-form-urlencoded', payload: 'List-Unsubscribe=One-Click' },
        { type: 'application/json', payload: '{}' },
        { type: 'application/json', payload: '' },
        { type: 'text/plain', payload: 'unsubscribe' },
        undefined,
      ];
      for (const body of bodies) {
        const res = await post(t, token, body);
        expect(res.statusCode, `${body?.type}: ${res.body}`).toBe(200);
        expect(res.json()).toEqual({ kind: 'deadline_soon', scope: 'kind' });
      }
      expect(await choicesOf(t, user.id)).toEqual({ forum_reply: 'immediately', deadline_soon: 'off' });
      const [profile] = await t.ctx.db
        .select()
        .from(notificationProfiles)
        .where(eq(notificationProfiles.userId, user.id));
      expect(profile?.digestHour).toBe(18);
    });

    it("mutes a course once, and turns every kind off for 'all'", async () => {
      const t = api();
      const user = await createUser(t);
      const course = await createCourse(t);
      const muting = tokenOf(t, user.id, { type: 'course', courseId: course.id });
      for (let i = 0; i < 2; i++) expect((await post(t, muting)).statusCode).toBe(200);
      expect(
        await t.ctx.db.select().from(notificationMutes).where(eq(notificationMutes.userId, user.id)),
      ).toEqual([{ userId: user.id, courseId: course.id }]);
      // A course deleted since the e-mail: nothing left to mute, and no error.
      const gone = await createCourse(t);
      await t.ctx.db.delete(courses).where(eq(courses.id, gone.id));
      expect((await post(t, tokenOf(t, user.id, { type: 'course', courseId: gone.id }))).statusCode).toBe(
        200,
      );

      expect((await post(t, tokenOf(t, user.id, { type: 'all' }))).json()).toEqual({
        kind: null,
        scope: 'all',
      });
      expect(await choicesOf(t, user.id)).toEqual(
        Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, 'off'])),
      );
    });

    it('refuses a forged, cut short or altered token, or one of a deleted account, with 400 invalid_token, changing nothing', async () => {
      const t = api();
      const user = await createUser(t);
      const victim = await createUser(t);
      const deleted = await createUser(t);
      const token = tokenOf(t, user.id, { type: 'all' });
      const [body, signature] = token.split('.') as [string, string];
      // The same signature on a body naming someone else.
      const otherBody = Buffer.from(
        Buffer.from(body, 'base64url').toString().replace(`|${user.id}|`, `|${victim.id}|`),
      ).toString('base64url');
      const deletedToken = tokenOf(t, deleted.id, { type: 'all' });
      await t.ctx.db.delete(users).where(eq(users.id, deleted.id));
      const refused = [
        tokenOf(t, user.id, { type: 'all' }, FORGED_SECRET),
        token.slice(0, -3),
        body,
        `${otherBody}.${signature}`,
        `${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
        deletedToken,
        'x',
      ];
      const before = await snapshot(t);
      for (const bad of refused) {
        for (const method of ['GET', 'POST'] as const) {
          const res = await call(t, method, PATH, { query: { token: bad } });
          expect(res.status, `${method} ${bad}`).toBe(400);
          expect(res.body).toMatchObject({ code: 'invalid_token' });
        }
      }
      expect(await snapshot(t)).toEqual(before);
      // Without a token at all: a plain validation error.
      expect((await call(t, 'POST', PATH)).status).toBe(400);
    });
  },
});
