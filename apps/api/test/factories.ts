import { authSessions, courseEditors, courseStudents, courses, users } from '../src/db/schema.ts';
import { hashPassword } from '../src/features/auth/password-hash.ts';
import { signAccessToken } from '../src/features/auth/tokens.ts';
import type { TestApp } from './harness.ts';

let counter = 0;
const next = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export const TEST_PASSWORD = 'correct-horse-battery-42';

const hashes = new Map<string, Promise<string>>();
/**
 * A real argon2id hash, made once per password per test process: a hash costs about 12 ms (more on
 * a busy box) and the matrices make thousands of users. Users of one password share its hash (and
 * salt), which no test tells apart: signing in checks the password against it as before.
 */
export function testPasswordHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  isStaff: boolean;
}

export async function createUser(
  t: TestApp,
  fields: {
    email?: string;
    password?: string | null;
    isStaff?: boolean;
    isActive?: boolean;
    firstName?: string;
    lastName?: string;
    roles?: string[];
  } = {},
): Promise<TestUser> {
  const email = (fields.email ?? `user-${next()}@example.test`).toLowerCase();
  const password = fields.password === undefined ? TEST_PASSWORD : fields.password;
  const [row] = await t.ctx.db
    .insert(users)
    .values({
      email,
      firstName: fields.firstName ?? 'Test',
      lastName: fields.lastName ?? 'User',
      passwordHash: password === null ? null : await testPasswordHash(password),
      isStaff: fields.isStaff ?? false,
      isActive: fields.isActive ?? true,
      roles: fields.roles ?? ['no_role'],
    })
    .returning({ id: users.id });
  return { id: row!.id, email, password: password ?? '', isStaff: fields.isStaff ?? false };
}

export async function createCourse(
  t: TestApp,
  fields: {
    title?: string;
    description?: string;
    hasVideos?: boolean;
    hasAssessment?: boolean;
    /** Unset: none, so the course follows DEFAULT_TIME_ZONE. */
    timeZone?: string;
  } = {},
) {
  const [row] = await t.ctx.db
    .insert(courses)
    .values({
      title: fields.title ?? `Course ${next()}`,
      description: fields.description ?? '',
      hasVideos: fields.hasVideos ?? false,
      hasAssessment: fields.hasAssessment ?? false,
      timeZone: fields.timeZone ?? null,
    })
    .returning();
  return row!;
}

export async function addEditor(t: TestApp, courseId: number, userId: number) {
  await t.ctx.db.insert(courseEditors).values({ courseId, userId });
}

export async function addStudent(t: TestApp, courseId: number, userId: number) {
  await t.ctx.db.insert(courseStudents).values({ courseId, userId });
}

/** An access token for a new session of `user`, without going through the sign-in route. */
export async function tokenFor(t: TestApp, user: { id: number }): Promise<string> {
  const [session] = await t.ctx.db
    .insert(authSessions)
    .values({ userId: user.id })
    .returning({ id: authSessions.id });
  return signAccessToken(t.config.JWT_SECRET, t.config.ACCESS_TOKEN_LIFETIME, {
    userId: user.id,
    sessionId: session!.id,
  });
}

/** The five callers the authorization matrix walks for a course: see courses' matrix test. */
export async function createCourseWorld(t: TestApp) {
  const course = await createCourse(t, { title: 'Algorithms' });
  const otherCourse = await createCourse(t, { title: 'Databases' });
  const staff = await createUser(t, { isStaff: true });
  const editor = await createUser(t);
  const otherEditor = await createUser(t);
  const student = await createUser(t);
  await addEditor(t, course.id, editor.id);
  await addEditor(t, otherCourse.id, otherEditor.id);
  await addStudent(t, course.id, student.id);
  return {
    course,
    otherCourse,
    users: { staff, editor, otherEditor, student },
    tokens: {
      anonymous: undefined,
      student: await tokenFor(t, student),
      editor: await tokenFor(t, editor),
      otherEditor: await tokenFor(t, otherEditor),
      staff: await tokenFor(t, staff),
    },
  };
}
