import { createForumWorld, minutesFromNow, type ForumWorld } from './testing.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every forum route of records, lists, read state and scheduling × every kind of caller → the exact
 * status (attachments: files.matrix.test.ts); apps/api/test/matrix.ts walks the rows.
 */
type Caller = 'anonymous' | 'student' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = ForumWorld;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'otherStudent', 'editor', 'otherEditor', 'staff'];

/** Members read and post (outsiders: 404); editors of the course and staff manage (students: 403). */
const members = (ok: number) => ({
  anonymous: 401,
  student: ok,
  otherStudent: 404,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
const managers = (ok: number) => ({ ...members(ok), student: 403 });
/** Hidden from students (a scheduled announcement): 404 as if it did not exist. */
const managersOnly = (ok: number) => ({ ...members(ok), student: 404 });
const everyone = (status: number) => ({
  anonymous: status,
  student: status,
  otherStudent: status,
  editor: status,
  otherEditor: status,
  staff: status,
});

const record = (id: (w: ForumWorld) => number) => (w: ForumWorld) => `/api/Forum/Record/${id(w)}/`;
const topic = record((w) => w.topic.id);
const announcement = record((w) => w.announcement.id);
const scheduled = record((w) => w.scheduled.id);
const course = (w: ForumWorld) => ({ course: String(w.course.id) });

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/Forum/Record/',
    url: () => '/api/Forum/Record/',
    query: course,
    expected: members(200),
  },
  {
    method: 'POST',
    route: '/api/Forum/Record/',
    case: 'a discussion',
    url: () => '/api/Forum/Record/',
    body: (w) => ({ course: w.course.id, title: 'Hello', content: 'Hi' }),
    expected: members(201),
  },
  {
    method: 'POST',
    route: '/api/Forum/Record/',
    case: 'a comment',
    url: () => '/api/Forum/Record/',
    body: (w) => ({ course: w.course.id, parent_record: w.topic.id, content: 'Hi' }),
    expected: members(201),
  },
  {
    method: 'POST',
    route: '/api/Forum/Record/',
    case: 'a scheduled announcement',
    url: () => '/api/Forum/Record/',
    body: (w) => ({
      course: w.course.id,
      title: 'Soon',
      content: 'x',
      is_announcement: true,
      scheduled_at: minutesFromNow(30).toISOString(),
    }),
    expected: managers(201),
  },
  { method: 'GET', route: '/api/Forum/Record/{id}/', url: topic, expected: members(200) },
  {
    method: 'GET',
    route: '/api/Forum/Record/{id}/',
    case: 'scheduled',
    url: scheduled,
    expected: managersOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/Record/{id}/',
    case: "the student's own",
    url: topic,
    body: () => ({ title: 'Edited', content: 'Edited' }),
    expected: members(200),
  },
  {
    method: 'PATCH',
    route: '/api/Forum/Record/{id}/',
    case: "an editor's",
    url: announcement,
    body: () => ({ content: 'Edited' }),
    expected: managers(200),
  },
  {
    method: 'PATCH',
    route: '/api/Forum/Record/{id}/',
    case: 'scheduled',
    url: scheduled,
    body: () => ({ content: 'Edited' }),
    expected: managersOnly(200),
  },
  {
    method: 'DELETE',
    route: '/api/Forum/Record/{id}/',
    case: "the student's own",
    url: topic,
    expected: members(204),
  },
  {
    method: 'DELETE',
    route: '/api/Forum/Record/{id}/',
    case: "an editor's",
    url: announcement,
    expected: managers(204),
  },
  {
    method: 'GET',
    route: '/api/Forum/Record/announcements/',
    url: () => '/api/Forum/Record/announcements/',
    query: course,
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/Forum/Record/announcements/',
    case: 'scheduled_ones',
    url: () => '/api/Forum/Record/announcements/',
    query: (w) => ({ ...course(w), scheduled_ones: 'true' }),
    expected: managers(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/Record/{id}/announcement/',
    url: (w) => `${topic(w)}announcement/`,
    body: () => ({ pinned: true }),
    expected: managers(200),
  },
  {
    method: 'DELETE',
    route: '/api/Forum/Record/{id}/announcement/',
    url: (w) => `${announcement(w)}announcement/`,
    expected: managers(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/Record/{id}/upvote/',
    url: (w) => `${topic(w)}upvote/`,
    expected: members(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/Record/{id}/upvote/',
    case: 'scheduled',
    url: (w) => `${scheduled(w)}upvote/`,
    expected: managersOnly(200),
  },
  {
    method: 'DELETE',
    route: '/api/Forum/Record/{id}/upvote/',
    url: (w) => `${topic(w)}upvote/`,
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/Forum/ForumUpvoteUsers/{forum_id}/',
    url: (w) => `/api/Forum/ForumUpvoteUsers/${w.topic.id}/`,
    expected: members(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/ForumUserStatus/{forum_id}/',
    url: (w) => `/api/Forum/ForumUserStatus/${w.topic.id}/`,
    body: () => ({ is_read: true }),
    expected: members(200),
  },
  {
    method: 'PUT',
    route: '/api/Forum/ForumUserStatus/{forum_id}/',
    case: 'scheduled',
    url: (w) => `/api/Forum/ForumUserStatus/${w.scheduled.id}/`,
    body: () => ({ is_read: true }),
    expected: managersOnly(200),
  },
  {
    method: 'GET',
    route: '/api/Forum/Comment/',
    url: () => '/api/Forum/Comment/',
    query: (w) => ({ parent_record: String(w.topic.id) }),
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/Forum/Templates/',
    url: () => '/api/Forum/Templates/',
    query: course,
    expected: members(200),
  },
  {
    // Bearer tokens are not the scheduler's Basic credentials (finalize tests cover the right ones).
    method: 'POST',
    route: '/api/Forum/scheduled-announcements/finalize',
    url: () => '/api/Forum/scheduled-announcements/finalize',
    expected: everyone(401),
  },
];

const OWN_PREFIXES = [
  '/api/Forum/Record/',
  '/api/Forum/Comment/',
  '/api/Forum/ForumUpvoteUsers/',
  '/api/Forum/ForumUserStatus/',
  '/api/Forum/Templates/',
  '/api/Forum/scheduled-announcements/',
];

describeMatrix<World, Caller>({
  title: 'forum: authorization matrix',
  callers: CALLERS,
  world: createForumWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => OWN_PREFIXES.some((p) => path.startsWith(p)),
  app: {
    env: { FORUM_FINALIZE_USER: 'scheduler', FORUM_FINALIZE_PASSWORD: 'a-long-enough-finalize-password' },
  },
});
