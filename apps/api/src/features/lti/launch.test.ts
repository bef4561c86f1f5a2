import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseEditors, courseStudents, users } from '../../db/schema.ts';
import { createUser } from '../../../test/factories.ts';
import { call, createTestApp } from '../../../test/harness.ts';
import { Browser } from '../../../test/peers/browser.ts';
import { ROLE } from '../../../test/peers/lti-shapes.ts';
import { exchange, launch, lmsPerson, startRig, type LtiRig } from './lti-testing.ts';
import { unique } from './testing.ts';

// Launches from an emulated LMS (issue 38): people and courses made and found, roles, and every way a
// launch is refused — with nothing created by a refused one.

let rig: LtiRig;
beforeAll(async () => {
  rig = await startRig();
}, 60_000);
afterAll(() => rig.close());

const person = lmsPerson;
const userCount = async () => (await rig.t.ctx.db.select({ n: count() }).from(users))[0]!.n;

/** An LMS course linked to a new Kadai course by its instructor's first launch; returns both ids. */
async function linkedCourse() {
  const contextId = `course-${unique()}`;
  const teacher = person('teacher');
  const first = await exchange(
    rig,
    await launch(rig, {
      user: teacher,
      roles: [ROLE.instructor],
      context: { id: contextId, title: 'Algorithms 2026', label: 'ALG' },
    }),
  );
  const contextRowId = Number(/^\/lti\/context\/(\d+)$/.exec(first.next)?.[1]);
  const linked = await call(rig.t, 'POST', `/api/Lti/Context/${contextRowId}/`, {
    token: first.access,
    body: {},
  });
  expect(linked.status, JSON.stringify(linked.json)).toBe(200);
  const courseId = Number(/^\/course\/(\d+)$/.exec((linked.json as { next: string }).next)?.[1]);
  return { contextId, contextRowId, courseId, teacher, teacherToken: first.access, teacherId: first.user.pk };
}

describe('LTI launch', () => {
  it('makes the instructor an account and lets them make the Kadai course at the first launch', async () => {
    const { courseId, teacherId, teacher, contextRowId, teacherToken } = await linkedCourse();
    const [account] = await rig.t.ctx.db.select().from(users).where(eq(users.id, teacherId));
    expect(account).toMatchObject({ email: teacher.email, firstName: 'teacher', lastName: 'Yamada' });
    const course = await call(rig.t, 'GET', `/api/Course/${courseId}/`, { token: teacherToken });
    expect((course.json as { title: string }).title).toBe('Algorithms 2026');
    expect(
      await rig.t.ctx.db.select().from(courseEditors).where(eq(courseEditors.courseId, courseId)),
    ).toHaveLength(1);
    // Linked once: a second link is a conflict, and the next launch goes straight to the course.
    const again = await call(rig.t, 'POST', `/api/Lti/Context/${contextRowId}/`, {
      token: teacherToken,
      body: {},
    });
    expect(again.status).toBe(409);
    expect(rig.lms.violations).toEqual([]);
  });

  it('lets an instructor link the LMS course to a course they already edit, not to one they do not', async () => {
    const contextId = `course-${unique()}`;
    const teacher = person('linker');
    const first = await exchange(
      rig,
      await launch(rig, { user: teacher, roles: [ROLE.instructor], context: { id: contextId } }),
    );
    const contextRowId = Number(first.next.split('/').pop());
    const other = await linkedCourse();
    const refused = await call(rig.t, 'POST', `/api/Lti/Context/${contextRowId}/`, {
      token: first.access,
      body: { course_id: other.courseId },
    });
    expect(refused.status).toBe(404);
    // Someone who did not launch there as instructor does not see the LMS course at all.
    const stranger = await call(rig.t, 'GET', `/api/Lti/Context/${contextRowId}/`, {
      token: other.teacherToken,
    });
    expect(stranger.status).toBe(404);
  });

  it('makes a learner a student of the linked course and opens its home; a second launch finds the account', async () => {
    const { contextId, courseId } = await linkedCourse();
    const learner = person('learner');
    const first = await exchange(
      rig,
      await launch(rig, { user: learner, roles: [ROLE.learner], context: { id: contextId } }),
    );
    expect(first.next).toBe(`/course/${courseId}`);
    const students = await rig.t.ctx.db
      .select()
      .from(courseStudents)
      .where(eq(courseStudents.courseId, courseId));
    expect(students.map((s) => s.userId)).toEqual([first.user.pk]);
    const before = await userCount();
    const second = await exchange(
      rig,
      await launch(rig, { user: learner, roles: [ROLE.learner], context: { id: contextId } }),
    );
    expect(second.user.pk).toBe(first.user.pk);
    expect(await userCount()).toBe(before);
  });

  it('tells a learner the course is not set up yet, and creates nothing', async () => {
    const before = await userCount();
    const result = await launch(rig, {
      user: person('early'),
      roles: [ROLE.learner],
      context: { id: `course-${unique()}` },
    });
    expect(result.status).toBe(403);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'lti_not_ready' });
    expect(await userCount()).toBe(before);
  });

  it('answers a browser with a page that moves on to the explanation, framed only by the LMS', async () => {
    const page = await new Browser().request(`${rig.base}/api/Lti/launch/`, {
      form: { id_token: 'junk', state: 'junk' },
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('url=/lti?error=expired');
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${rig.lms.issuer}`);
    expect(page.headers.get('x-frame-options')).toBeNull();
  });

  it("lets the registered LMS frame the app's pages, and nobody else frame the API's answers", async () => {
    const page = await new Browser().request(`${rig.base}/course/1`);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${rig.lms.issuer}`);
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${rig.lms.issuer}`);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const api = await new Browser().request(`${rig.base}/api/Lti/jwks/`);
    expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('refuses a replayed id_token, and a launch carrying the nonce of an earlier one', async () => {
    const { contextId } = await linkedCourse();
    const browser = new Browser();
    const prepared = rig.lms.prepareLaunch({
      user: person('replay'),
      roles: [ROLE.learner],
      context: { id: contextId },
    });
    await browser.follow(prepared.loginInitiationUrl);
    const first = await browser.request(`${rig.base}/api/Lti/launch/`, {
      form: { id_token: rig.lms.lastIdToken!, state: rig.lms.lastState! },
    });
    expect(first.status).toBe(303);
    const again = await browser.request(`${rig.base}/api/Lti/launch/`, {
      form: { id_token: rig.lms.lastIdToken!, state: rig.lms.lastState! },
    });
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body)).toMatchObject({ code: 'lti_expired' });
    const replayed = await launch(rig, {
      user: person('replay2'),
      roles: [ROLE.learner],
      context: { id: contextId },
      misbehave: { replayNonce: true },
    });
    expect(replayed.status).toBe(400);
  });

  it.each([
    ['a wrong audience', { aud: 'someone-else' }, 400, 'lti_invalid'],
    ['a wrong issuer', { iss: 'https://impostor.example' }, 400, 'lti_invalid'],
    ['an unregistered deployment', { deploymentId: 'dep-unknown' }, 404, 'lti_unknown_platform'],
    ['an expired token', { expired: true }, 401, 'lti_expired'],
    ['a key not in the JWKS', { unknownKey: true }, 400, 'lti_invalid'],
    [
      'no message type',
      { omitClaims: ['https://purl.imsglobal.org/spec/lti/claim/message_type'] },
      400,
      'lti_invalid',
    ],
  ])('refuses %s and creates nothing', async (_name, misbehave, status, code) => {
    const before = await userCount();
    const result = await launch(rig, {
      user: person('bad'),
      roles: [ROLE.learner],
      context: { id: `course-${unique()}` },
      misbehave,
    });
    expect(result.status, result.body).toBe(status);
    expect(JSON.parse(result.body)).toMatchObject({ code });
    expect(await userCount()).toBe(before);
  });

  it('is finished by another API instance than the one it began at', async () => {
    const { contextId, courseId } = await linkedCourse();
    const other = await createTestApp({ sameDatabaseAs: rig.t, env: { PUBLIC_URL: rig.base } });
    try {
      const prepared = rig.lms.prepareLaunch({
        user: person('elsewhere'),
        roles: [ROLE.learner],
        context: { id: contextId },
      });
      await new Browser().follow(prepared.loginInitiationUrl);
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/Lti/launch/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          id_token: rig.lms.lastIdToken!,
          state: rig.lms.lastState!,
        }).toString(),
      });
      expect(res.statusCode, res.body).toBe(303);
      const code = new URL(res.headers.location!, rig.base).searchParams.get('code');
      const tokens = await call(rig.t, 'POST', '/api/Lti/Exchange/', { body: { code } });
      expect(tokens.json).toMatchObject({ next: `/course/${courseId}` });
    } finally {
      await other.close();
    }
  });

  it("frames the app for the LMS's own site when staff add it, and falls back to the defaults", async () => {
    const patch = (frame_origins: string[]) =>
      call(rig.t, 'PATCH', `/api/Lti/Platform/${rig.platformId}/`, {
        token: rig.staffToken,
        body: { frame_origins },
      });
    expect((await patch(['https://canvas.univ.example.ac.jp'])).json).toMatchObject({
      frame_origins: ['https://canvas.univ.example.ac.jp'],
    });
    const page = await new Browser().request(`${rig.base}/course/1`);
    expect(page.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://canvas.univ.example.ac.jp',
    );
    expect((await patch([])).json).toMatchObject({ frame_origins: [rig.lms.issuer] });
  });

  it('refuses an unknown issuer at the login initiation', async () => {
    const res = await call(rig.t, 'GET', '/api/Lti/login/', {
      query: {
        iss: 'https://unknown.example',
        login_hint: 'x',
        target_link_uri: `${rig.base}/api/Lti/launch/`,
      },
    });
    expect(res.status).toBe(404);
  });

  it("follows the platform's key rotation without anybody's help", async () => {
    const { contextId } = await linkedCourse();
    await rig.lms.rotateKey({ keepOld: false });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const result = await launch(rig, {
      user: person('rotated'),
      roles: [ROLE.learner],
      context: { id: contextId },
    });
    expect(result.status, result.body).toBe(0);
  });

  it('links an existing account of the same e-mail only with its password', async () => {
    const { contextId, courseId } = await linkedCourse();
    const owner = await createUser(rig.t);
    const result = await launch(rig, {
      user: { sub: `sub-owner-${unique()}`, email: owner.email, givenName: 'O', familyName: 'W' },
      roles: [ROLE.learner],
      context: { id: contextId },
    });
    expect(result.location).toMatch(/^\/lti\?link=/);
    const code = new URLSearchParams(result.location.split('?')[1]).get('link')!;
    const info = await call(rig.t, 'GET', '/api/Lti/Link/', { query: { code } });
    expect(info.json).toMatchObject({ email: owner.email, platform: 'Emulated Moodle' });
    const wrong = await call(rig.t, 'POST', '/api/Lti/Link/', {
      body: { code, password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    const right = await call(rig.t, 'POST', '/api/Lti/Link/', { body: { code, password: owner.password } });
    expect(right.status, JSON.stringify(right.json)).toBe(200);
    expect(right.json).toMatchObject({ user: { pk: owner.id }, next: `/course/${courseId}` });
    const reused = await call(rig.t, 'POST', '/api/Lti/Link/', { body: { code, password: owner.password } });
    expect(reused.status).toBe(410);
  });

  it('makes an Administrator staff only where the registration allows it', async () => {
    const { contextId } = await linkedCourse();
    const admin = person('admin');
    const roles = [ROLE.institutionAdministrator, ROLE.learner];
    const isStaff = async (id: number) =>
      (await rig.t.ctx.db.select().from(users).where(eq(users.id, id)))[0]!.isStaff;
    const first = await exchange(rig, await launch(rig, { user: admin, roles, context: { id: contextId } }));
    expect(await isStaff(first.user.pk)).toBe(false);
    await call(rig.t, 'PATCH', `/api/Lti/Platform/${rig.platformId}/`, {
      token: rig.staffToken,
      body: { allow_staff: true },
    });
    try {
      const second = await exchange(
        rig,
        await launch(rig, { user: admin, roles, context: { id: contextId } }),
      );
      expect(await isStaff(second.user.pk)).toBe(true);
    } finally {
      await call(rig.t, 'PATCH', `/api/Lti/Platform/${rig.platformId}/`, {
        token: rig.staffToken,
        body: { allow_staff: false },
      });
    }
  });

  it('refuses every launch of a disabled registration', async () => {
    await call(rig.t, 'PATCH', `/api/Lti/Platform/${rig.platformId}/`, {
      token: rig.staffToken,
      body: { enabled: false },
    });
    try {
      const prepared = rig.lms.prepareLaunch({
        user: person('off'),
        roles: [ROLE.learner],
        context: { id: 'c' },
      });
      const res = await new Browser().request(prepared.loginInitiationUrl);
      expect(res.status).toBe(403);
    } finally {
      await call(rig.t, 'PATCH', `/api/Lti/Platform/${rig.platformId}/`, {
        token: rig.staffToken,
        body: { enabled: true },
      });
    }
  });
});
