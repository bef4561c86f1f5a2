import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';

// The page shows times in the browser's zone: pin it, so the test reads the same everywhere.
const previousZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = previousZone;
});

const course = (role: 'student' | 'editor') => ({
  id: 1,
  title: 'Python',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: 'Asia/Tokyo',
  created_at: '2026-04-01T00:00:00Z',
  updated_at: '2026-04-01T00:00:00Z',
  my_role: role,
  editor_count: 1,
  student_count: 3,
});

const entry = (fields: Record<string, unknown>) => ({
  description: '',
  location: '',
  all_day: false,
  course_id: 1,
  event_id: null,
  assignment_id: null,
  quiz_id: null,
  quiz_course_id: null,
  time_limit_minutes: null,
  ...fields,
});

const ENTRIES = [
  entry({
    key: 'event-3',
    source: 'event',
    kind: 'lecture',
    title: 'Lecture 1',
    location: 'Room 201',
    starts_at: '2026-05-12T01:40:00.000Z',
    ends_at: '2026-05-12T03:10:00.000Z',
    event_id: 3,
  }),
  entry({
    key: 'quiz-course-7',
    source: 'quiz',
    kind: 'quiz_window',
    title: 'Quiz 1',
    starts_at: '2026-05-13T00:00:00.000Z',
    ends_at: '2026-05-13T06:00:00.000Z',
    quiz_id: 4,
    quiz_course_id: 7,
  }),
  entry({
    key: 'assignment-5-course-1-due',
    source: 'assignment',
    kind: 'assignment_due',
    title: 'Hello, world',
    starts_at: '2026-05-14T14:59:00.000Z',
    ends_at: '2026-05-14T14:59:00.000Z',
    assignment_id: 5,
  }),
];

const EVENT = {
  id: 3,
  course_id: 1,
  title: 'Lecture 1',
  description: 'Bring a laptop.',
  kind: 'lecture',
  starts_at: '2026-05-12T01:40:00.000Z',
  ends_at: '2026-05-12T03:10:00.000Z',
  all_day: false,
  location: 'Room 201',
  created_by: 2,
  created_at: '2026-05-01T00:00:00.000Z',
  updated_at: '2026-05-01T00:00:00.000Z',
};

function server(role: 'student' | 'editor') {
  let feedVersion = 1;
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(role));
    if (path === '/api/Event/1/' && request.method === 'GET') {
      return json(200, {
        course_id: 1,
        from: url.searchParams.get('from'),
        to: url.searchParams.get('to'),
        can_manage: role === 'editor',
        truncated: false,
        results: ENTRIES,
      });
    }
    if (path === '/api/Event/1/' && request.method === 'POST') {
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      return json(201, { ...EVENT, id: 9, ...body });
    }
    if (path === '/api/Event/1/3/') return json(200, EVENT);
    if (path === '/api/Calendar/feed/reset/') {
      feedVersion += 1;
    }
    if (path.startsWith('/api/Calendar/feed/')) {
      const feedUrl = `http://lms.test/api/calendar/4.${feedVersion}.${'x'.repeat(43)}.ics`;
      return json(200, {
        url: feedUrl,
        webcal_url: feedUrl.replace('http:', 'webcal:'),
        reset_at: '2026-05-01T00:00:00.000Z',
      });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

beforeEach(() => {
  signInAsStudent();
});

const PAGE = '/course/1/calendar?date=2026-05-12';
/** The page loads lazily: on a busy machine the first render may take a few seconds. */
const SLOW = { timeout: 10_000 };

// The whole app renders in each test: give a busy machine time.
describe('the calendar page', { timeout: 30_000 }, () => {
  it('shows the month with each entry linking to its page, a legend in words, and the feed URL', async () => {
    const { requests } = stubFetch(server('student'));
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Calendar' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'May 2026' })).toBeTruthy();
    const month = await screen.findByRole('table', { name: 'May 2026' }, SLOW);
    // Sunday first: 26 April to 6 June.
    expect(
      within(month)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    const quiz = within(month).getByRole('link', { name: /Quiz window: 09:00 Quiz 1/ });
    expect(quiz.getAttribute('href')).toBe('/course/1/quizzes/4/quiz-courses/7');
    const due = within(month).getByRole('link', { name: /Assignment due: 23:59 Hello, world/ });
    expect(due.getAttribute('href')).toBe('/course/1/assignment/5');
    expect(within(month).getByRole('button', { name: /Lecture: 10:40 Lecture 1/ })).toBeTruthy();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toContain('Quiz window');
    expect(screen.getByText(/Times are shown in .*Asia\/Tokyo/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New event' })).toBeNull();

    const calendarCall = requests.find((r) => r.url.startsWith('/api/Event/1/'));
    const asked = new URL(calendarCall!.url, 'http://test').searchParams;
    // Local midnight of 26 April to local midnight after 6 June, in Tokyo.
    expect(asked.get('from')).toBe('2026-04-25T15:00:00.000Z');
    expect(asked.get('to')).toBe('2026-06-06T15:00:00.000Z');

    expect(await screen.findByRole('textbox', { name: 'Private calendar URL' })).toHaveProperty(
      'value',
      `http://lms.test/api/calendar/4.1.${'x'.repeat(43)}.ics`,
    );
  });

  it('keeps the view and the day in the URL, and moves by weeks in the week view', async () => {
    const { requests } = stubFetch(server('student'));
    const { router } = renderApp(PAGE);
    await screen.findByRole('table', { name: 'May 2026' }, SLOW);
    fireEvent.click(screen.getByRole('radio', { name: 'Week' }));
    await waitFor(() => expect(router.state.location.search).toContain('view=week'));
    expect(await screen.findByRole('heading', { level: 2, name: /May 10\s*–\s*16, 2026/ })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Tuesday, May 12, 2026' })).toBeTruthy();
    // The entries read on the 24-hour clock of the grid's hour axis ("01:00" … "23:00"), also in English.
    const hours = screen.getByRole('region', { name: 'Hours of the week' });
    expect(within(hours).getByText('23:00')).toBeTruthy();
    expect(within(hours).getByRole('button', { name: 'Lecture: 10:40 – 12:10 Lecture 1' })).toBeTruthy();
    expect(within(hours).getByRole('link', { name: 'Quiz window: 09:00 – 15:00 Quiz 1' })).toBeTruthy();
    expect(within(hours).getByRole('link', { name: 'Assignment due: 23:59 Hello, world' })).toBeTruthy();
    expect(hours.textContent).not.toMatch(/\b(AM|PM)\b/);
    fireEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(router.state.location.search).toContain('date=2026-05-19'));
    await waitFor(() =>
      expect(requests.some((r) => r.url.includes(encodeURIComponent('2026-05-16T15:00:00.000Z')))).toBe(true),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'List' }));
    expect(await screen.findByRole('heading', { level: 3, name: /Tuesday, May 12, 2026/ })).toBeTruthy();
    expect(screen.getByText('10:40 – 12:10')).toBeTruthy();
  });

  it('opens an event’s details from the calendar', async () => {
    stubFetch(server('student'));
    const { router } = renderApp(PAGE);
    fireEvent.click(await screen.findByRole('button', { name: /Lecture: 10:40 Lecture 1/ }, SLOW));
    await waitFor(() => expect(router.state.location.search).toContain('event=3'));
    const dialog = await screen.findByRole('dialog', { name: 'Lecture 1' });
    // The same date-time format as every other page, the date once for a range within a day.
    expect(await within(dialog).findByText('Tue, May 12, 2026, 10:40 – 12:10 GMT+9')).toBeTruthy();
    expect(await within(dialog).findByText('Room 201')).toBeTruthy();
    expect(within(dialog).getByText('Bring a laptop.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('lets an editor add an event, checking the times first', async () => {
    const { requests } = stubFetch(server('editor'));
    renderApp(PAGE);
    fireEvent.click(await screen.findByRole('button', { name: 'New event' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'New event' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Enter a title of at most 200 characters')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Title/ }), {
      target: { value: 'Midterm' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Starts/), { target: { value: '2026-05-20T13:00' } });
    fireEvent.change(within(dialog).getByLabelText(/Ends/), { target: { value: '2026-05-20T12:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('The end must not be before the start.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/Ends/), { target: { value: '2026-05-20T14:30' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Place' }), { target: { value: 'Hall A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      title: 'Midterm',
      kind: 'lecture',
      all_day: false,
      starts_at: '2026-05-20T04:00:00.000Z',
      ends_at: '2026-05-20T05:30:00.000Z',
      location: 'Hall A',
      description: '',
    });
    expect(await screen.findByText('Event “Midterm” added.')).toBeTruthy();
  });

  it('resets the feed URL after asking', async () => {
    const { requests } = stubFetch(server('student'));
    renderApp(PAGE);
    const field = await screen.findByRole('textbox', { name: 'Private calendar URL' }, SLOW);
    expect(field).toHaveProperty('value', expect.stringContaining('/4.1.'));
    fireEvent.click(screen.getByRole('button', { name: 'Reset URL' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset the calendar URL' });
    expect(within(confirm).getByText('Sure to reset?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset URL' }));
    await waitFor(() => expect(field).toHaveProperty('value', expect.stringContaining('/4.2.')));
    expect(requests.filter((r) => r.url === '/api/Calendar/feed/reset/' && r.method === 'POST')).toHaveLength(
      1,
    );
  });
});
