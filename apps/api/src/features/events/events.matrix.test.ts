import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarFeed } from '@kadai/contracts';
import { call, createTestApp, type TestApp, documentedRoutes } from '../../../test/harness.ts';
import { createCalendarWorld, hoursFromNow } from './testing.ts';

/**
 * Every route of the calendar × every kind of caller → the exact status. Each cell gets a world of its
 * own, so a cell that deletes the event cannot decide another's.
 */
type Caller = 'anonymous' | 'student' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createCalendarWorld>>;

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the OpenAPI document names it. */
  route: string;
  url: (w: World, t: TestApp) => string | Promise<string>;
  body?: (w: World) => unknown;
  expected: Record<Caller, number>;
}

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
async function editorFeedPath(w: World, t: TestApp): Promise<string> {
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

describe('calendar: authorization matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has a row for every route of the feature', async () => {
    expect(await documentedRoutes(t, (path) => OWN_PREFIXES.some((p) => path.startsWith(p)))).toEqual(
      MATRIX.map((r) => `${r.method} ${r.route}`).sort(),
    );
  });

  for (const row of MATRIX) {
    it(`${row.method} ${row.route}`, async () => {
      const actual: Record<string, number> = {};
      for (const caller of CALLERS) {
        const world = await createCalendarWorld(t);
        const token = world.tokens[caller];
        const res = await call(t, row.method, await row.url(world, t), { token, body: row.body?.(world) });
        actual[caller] = res.status;
      }
      expect(actual).toEqual(row.expected);
    });
  }
});
