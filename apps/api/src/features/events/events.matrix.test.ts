import { CalendarFeed } from '@kadai/contracts';
import { createCalendarWorld, hoursFromNow } from './testing.ts';
import { call } from '../../../test/harness.ts';
import { describeMatrix, type Cell, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of the calendar × every kind of caller → the exact status (apps/api/test/matrix.ts
 * walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createCalendarWorld>>;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'otherStudent', 'editor', 'otherEditor', 'staff'];

/** Members read (outsiders: 404); editors of the course and staff manage (students: 403). */
const read = { anonymous: 401, student: 200, otherStudent: 404, editor: 200, otherEditor: 404, staff: 200 };
const manage = (ok: number) => ({
  anonymous: 401,
  student: 403,
  otherStudent: 404,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
const anyUser = {
  anonymous: 401,
  student: 200,
  otherStudent: 200,
  editor: 200,
  otherEditor: 200,
  staff: 200,
};

const list = (w: World) => `/api/Event/${w.course.id}/`;
const one = (w: World) => `/api/Event/${w.course.id}/${w.event.id}/`;
const event = () => ({
  title: 'Exam',
  description: '',
  kind: 'exam',
  starts_at: hoursFromNow(100).toISOString(),
  ends_at: hoursFromNow(102).toISOString(),
  all_day: false,
  location: 'Hall A',
});

/** A feed URL of the editor (the feed is public: whoever has the URL reads it, signed in or not). */
async function editorFeedPath(w: World, { t }: Cell<World, Caller>): Promise<string> {
  const res = await call(t, 'GET', '/api/Calendar/feed/', { token: w.tokens.editor });
  return new URL(CalendarFeed.parse(res.body).url).pathname;
}

const MATRIX: Row[] = [
  { method: 'GET', route: '/api/Event/{course_id}/', url: list, expected: read },
  { method: 'POST', route: '/api/Event/{course_id}/', url: list, body: event, expected: manage(201) },
  { method: 'GET', route: '/api/Event/{course_id}/{id}/', url: one, expected: read },
  { method: 'PUT', route: '/api/Event/{course_id}/{id}/', url: one, body: event, expected: manage(200) },
  {
    method: 'PATCH',
    route: '/api/Event/{course_id}/{id}/',
    url: one,
    body: () => ({ location: 'Room 2' }),
    expected: manage(200),
  },
  { method: 'DELETE', route: '/api/Event/{course_id}/{id}/', url: one, expected: manage(204) },
  { method: 'GET', route: '/api/Calendar/feed/', url: () => '/api/Calendar/feed/', expected: anyUser },
  {
    method: 'POST',
    route: '/api/Calendar/feed/reset/',
    url: () => '/api/Calendar/feed/reset/',
    expected: anyUser,
  },
  {
    method: 'GET',
    route: '/api/calendar/{file}',
    url: editorFeedPath,
    expected: { anonymous: 200, student: 200, otherStudent: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
];

const OWN_PREFIXES = ['/api/Event/', '/api/Calendar/', '/api/calendar/'];

describeMatrix<World, Caller>({
  title: 'calendar: authorization matrix',
  callers: CALLERS,
  world: createCalendarWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => OWN_PREFIXES.some((p) => path.startsWith(p)),
});
