import { call } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of notifications × every kind of caller → the exact status: a person's own list, marks
 * and settings for every signed-in caller; someone else's notification is 404; the course's switch for
 * its editors and staff.
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';

/** The course world, with one announcement the student was told of. */
async function createNotificationWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const posted = await call(t, 'POST', '/api/Forum/Record/', {
    token: world.tokens.editor,
    body: { course: world.course.id, title: 'Welcome', content: 'Hello.', is_announcement: true },
  });
  if (posted.status !== 201) throw new Error(`post: ${posted.status}`);
  const listed = await call(t, 'GET', '/api/Notification/', { token: world.tokens.student });
  const notificationId = (listed.body as { results: { id: number }[] }).results[0]!.id;
  return { ...world, notificationId };
}
type World = Awaited<ReturnType<typeof createNotificationWorld>>;
type Row = MatrixRow<World, Caller>;

const everyone = (ok: number) => ({ anonymous: 401, student: ok, editor: ok, otherEditor: ok, staff: ok });
const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });

const MATRIX: Row[] = [
  { method: 'GET', route: '/api/Notification/', url: () => '/api/Notification/', expected: everyone(200) },
  {
    method: 'GET',
    route: '/api/Notification/unread/',
    url: () => '/api/Notification/unread/',
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/Notification/{id}/read/',
    url: (w) => `/api/Notification/${w.notificationId}/read/`,
    expected: { anonymous: 401, student: 200, editor: 404, otherEditor: 404, staff: 404 },
  },
  {
    method: 'POST',
    route: '/api/Notification/read-all/',
    url: () => '/api/Notification/read-all/',
    body: () => ({}),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/NotificationSettings/',
    url: () => '/api/NotificationSettings/',
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/NotificationSettings/',
    url: () => '/api/NotificationSettings/',
    body: () => ({ digest_hour: 7 }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/notification-settings/',
    url: (w) => `/api/Course/${w.course.id}/notification-settings/`,
    expected: manage(200),
  },
  {
    method: 'PUT',
    route: '/api/Course/{id}/notification-settings/',
    url: (w) => `/api/Course/${w.course.id}/notification-settings/`,
    body: () => ({ notify_editors_of_new_members: true }),
    expected: manage(200),
  },
];

describeMatrix<World, Caller>({
  title: 'notifications: authorization matrix',
  callers: ['anonymous', 'student', 'editor', 'otherEditor', 'staff'],
  world: createNotificationWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  // The unsubscribe link (no sign-in) has its own matrix: unsubscribe.matrix.test.ts.
  owns: (path) =>
    (path.startsWith('/api/Notification') && !path.includes('/unsubscribe/')) ||
    path.endsWith('/notification-settings/'),
});
