import type { Notification, NotificationList, NotificationSettings } from '@kadai/contracts';
import { courseAs } from '../../test/course.ts';
import { json, type RecordedRequest } from '../../test/fetch.ts';

/* The reader's notifications and settings as the API answers them, and a server that keeps them. */

export const AT = '2026-04-01T09:00:00.000Z';

export function notification(id: number, fields: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'announcement',
    course_id: 1,
    course_title: 'Python',
    link: `/course/1/forum/${id}`,
    facts: { title: `Notice ${id}` },
    created_at: AT,
    read_at: null,
    ...fields,
  };
}

export const REPLY = notification(3, {
  kind: 'forum_reply',
  link: '/course/1/forum/12',
  facts: { title: 'Week 3', actor: { first_name: 'Emily', last_name: 'Carter' } },
});
export const GRADED = notification(2, {
  kind: 'submission_graded',
  link: '/course/1/submission/41',
  facts: { title: 'Loops', score: 8, max_score: 10 },
  read_at: AT,
});

export const SETTINGS: NotificationSettings = {
  email: {
    announcement: 'immediately',
    deadline_soon: 'immediately',
    submission_graded: 'digest',
    feedback_released: 'digest',
    forum_reply: 'digest',
    extension: 'digest',
    quiz_opened: 'digest',
    member_added: 'digest',
  },
  digest_hour: 7,
  time_zone: 'Asia/Tokyo',
  muted_course_ids: [],
  email_refused_at: null,
  email_delivered: true,
};

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/**
 * The notifications API over `items` (newest first), `pageSize` a page by a cursor that is the next
 * index; reads and marks change them as the server would. `extra` answers first.
 */
export function notificationServer(
  items: Notification[],
  { settings = SETTINGS, extra = [] }: { settings?: NotificationSettings; extra?: Route[] } = {},
) {
  const state = { items: items.map((item) => ({ ...item })), settings };
  const unread = () => state.items.filter((item) => item.read_at === null).length;
  const handler = (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    for (const route of extra) {
      const response = route(request, url);
      if (response) return response;
    }
    const path = url.pathname;
    const method = request.method;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, courseAs('student'));
    if (path === '/api/Course/') {
      const courses = [courseAs('student'), courseAs('student', { id: 2, title: 'Algorithms' })];
      return json(200, { count: courses.length, limit: 100, offset: 0, results: courses });
    }
    if (path === '/api/Notification/unread/') return json(200, { unread: unread() });
    if (path === '/api/Notification/' && method === 'GET') {
      const onlyUnread = url.searchParams.get('unread') === 'true';
      const size = Number(url.searchParams.get('page_size') ?? 20);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const shown = state.items.filter((item) => !onlyUnread || item.read_at === null);
      const results = shown.slice(start, start + size);
      const next = start + size < shown.length ? String(start + size) : null;
      return json(200, { results, next_cursor: next, unread: unread() } satisfies NotificationList);
    }
    const read = /^\/api\/Notification\/(\d+)\/read\/$/.exec(path);
    if (read && method === 'POST') {
      const item = state.items.find((candidate) => candidate.id === Number(read[1]));
      if (!item) return json(404, { detail: 'Not found.', code: 'not_found' });
      const marked = item.read_at === null ? 1 : 0;
      item.read_at = AT;
      return json(200, { marked, unread: unread() });
    }
    if (path === '/api/Notification/read-all/' && method === 'POST') {
      const body = (request.body ?? {}) as { link?: string; course_id?: number };
      let marked = 0;
      for (const item of state.items) {
        const matches =
          (body.link === undefined || item.link === body.link) &&
          (body.course_id === undefined || item.course_id === body.course_id);
        if (matches && item.read_at === null) {
          item.read_at = AT;
          marked += 1;
        }
      }
      return json(200, { marked, unread: unread() });
    }
    if (path === '/api/NotificationSettings/') {
      if (method === 'PUT') {
        const body = request.body as Partial<NotificationSettings>;
        state.settings = {
          ...state.settings,
          ...body,
          email: { ...state.settings.email, ...body.email },
          email_refused_at: null,
        };
      }
      return json(200, state.settings);
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
  return { handler, state };
}
