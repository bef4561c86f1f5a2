import { screen, within } from '@testing-library/react';
import type { EditorCourseOverview, StudentCourseOverview } from '@kadai/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../auth/session.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';

// Dates and the calendar link's day are the reader's: pin the zone so the test reads the same anywhere.
const previousZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = previousZone;
});

const NOW = '2026-05-12T03:00:00.000Z';

const course = (role: 'student' | 'editor') => ({
  id: 1,
  title: 'Introduction to Python',
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

const editorAuthor = {
  id: 2,
  display_name: 'Emily Carter',
  first_name: 'Emily',
  last_name: 'Carter',
  role: 'editor' as const,
};
const classmate = {
  id: 5,
  display_name: 'Hanako Aoki',
  first_name: 'Hanako',
  last_name: 'Aoki',
  role: 'student' as const,
};

const STUDENT: StudentCourseOverview = {
  view: 'student',
  course_id: 1,
  now: NOW,
  due_soon: {
    count: 3,
    results: [
      {
        kind: 'assignment',
        assignment_id: 5,
        quiz_id: null,
        quiz_course_id: null,
        title: 'Recursion',
        opens_at: '2026-05-01T00:00:00.000Z',
        due_at: '2026-05-11T14:59:00.000Z',
        late_until: '2026-05-13T14:59:00.000Z',
        is_late: true,
        is_upcoming: false,
        status: 'not_submitted',
        score: null,
        max_score: null,
        submission_id: null,
      },
      {
        kind: 'quiz',
        assignment_id: null,
        quiz_id: 4,
        quiz_course_id: 7,
        title: 'Quiz 2',
        opens_at: '2026-05-10T00:00:00.000Z',
        due_at: '2026-05-14T00:00:00.000Z',
        late_until: null,
        is_late: false,
        is_upcoming: false,
        status: 'graded',
        score: 7,
        max_score: 10,
        submission_id: 40,
      },
      {
        kind: 'quiz',
        assignment_id: null,
        quiz_id: 8,
        quiz_course_id: 9,
        title: 'Quiz 3',
        opens_at: '2026-05-14T00:00:00.000Z',
        due_at: '2026-05-15T14:59:00.000Z',
        late_until: null,
        is_late: false,
        is_upcoming: true,
        status: 'not_submitted',
        score: null,
        max_score: null,
        submission_id: null,
      },
    ],
  },
  open_quizzes: { count: 0, results: [] },
  unread_announcements: {
    count: 1,
    results: [{ id: 9, title: 'Room change', author: editorAuthor, pinned: true, published_at: NOW }],
  },
  forum_replies: {
    count: 1,
    results: [
      {
        topic_id: 11,
        topic_title: 'Why is my sort slow?',
        reply_count: 2,
        latest_reply_at: '2026-05-12T01:00:00.000Z',
        latest_author: classmate,
      },
    ],
  },
  latest_results: {
    count: 2,
    results: [
      {
        kind: 'assignment',
        assignment_id: 3,
        quiz_id: null,
        quiz_course_id: null,
        title: 'Sorting',
        submission_id: 31,
        status: 'Completed',
        score: 10,
        max_score: 10,
        result_at: '2026-05-12T02:00:00.000Z',
      },
      {
        kind: 'quiz',
        assignment_id: null,
        quiz_id: 4,
        quiz_course_id: 7,
        title: 'Quiz 1',
        submission_id: 40,
        status: null,
        score: 3,
        max_score: 5,
        result_at: '2026-05-11T02:00:00.000Z',
      },
    ],
  },
  new_feedback: {
    count: 1,
    results: [
      {
        submission_id: 31,
        assignment_id: 3,
        assignment_title: 'Sorting',
        total: 8.5,
        max_score: 12,
        released_at: '2026-05-12T00:00:00.000Z',
        open_regrade_requests: 1,
        answered_regrade_requests: 0,
      },
    ],
  },
  upcoming_events: {
    count: 1,
    results: [
      {
        id: 3,
        title: 'Lecture 5',
        kind: 'lecture',
        starts_at: '2026-05-13T16:00:00.000Z',
        ends_at: '2026-05-13T17:30:00.000Z',
        all_day: false,
        location: 'Room 101',
      },
    ],
  },
};

const EDITOR: EditorCourseOverview = {
  view: 'editor',
  course_id: 1,
  now: NOW,
  student_count: 120,
  grading_attention: {
    count: 1,
    results: [
      {
        submission_id: 77,
        assignment_id: 3,
        assignment_title: 'Sorting',
        student: { id: 5, email: 'hanako@example.jp', first_name: 'Hanako', last_name: 'Aoki' },
        status: 'InternalError',
        reason: 'internal_error',
        message: 'The sandbox could not start.',
        created_at: '2026-05-12T01:00:00.000Z',
        since: '2026-05-12T01:00:00.000Z',
      },
    ],
  },
  closing_soon: { count: 0, results: [] },
  missing_submissions: {
    count: 1,
    results: [
      {
        assignment_id: 5,
        title: 'Recursion',
        due_at: '2026-05-11T14:59:00.000Z',
        late_until: '2026-05-13T14:59:00.000Z',
        accepts_late: true,
        missing_count: 7,
        students: [
          { id: 5, email: 'hanako@example.jp', first_name: 'Hanako', last_name: 'Aoki' },
          { id: 6, email: 'jiro@example.jp', first_name: 'Jiro', last_name: 'Suzuki' },
        ],
      },
    ],
  },
  unanswered_questions: {
    count: 50,
    results: [
      {
        id: 11,
        title: 'Why is my sort slow?',
        author: {
          id: 4,
          display_name: 'Taro Yamada',
          first_name: 'Taro',
          last_name: 'Yamada',
          role: 'student',
        },
        comment_count: 2,
        created_at: '2026-05-11T03:00:00.000Z',
      },
    ],
  },
  open_workbook_sessions: 4,
  open_regrade_requests: 2,
};

function server(role: 'student' | 'editor', overview: () => Response | Promise<Response>) {
  return (request: RecordedRequest) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(role));
    if (path === '/api/Course/1/overview/') return overview();
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

beforeEach(() => {
  signInAsStudent();
});

/** The page loads lazily: on a busy machine the first render may take a few seconds. */
const SLOW = { timeout: 10_000 };

const region = (name: string) => screen.getByRole('region', { name });
const hrefOf = (scope: HTMLElement, name: string | RegExp) =>
  within(scope).getByRole('link', { name }).getAttribute('href');

describe('the course home', { timeout: 30_000 }, () => {
  it('opens at /course/{id}: a student’s due work, news, results and events, each a link', async () => {
    const { requests } = stubFetch(server('student', () => json(200, STUDENT)));
    renderApp('/course/1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Introduction to Python' }, SLOW),
    ).toBeTruthy();
    await screen.findByRole('region', { name: 'Due soon' });
    expect(document.title).toBe('Home · Kadai');
    expect(requests.filter((r) => r.url === '/api/Course/1/overview/')).toHaveLength(1);

    // The rail's first entry is the home, and it is the current page; the breadcrumbs end at the course.
    const rail = screen.getByRole('navigation', { name: 'Course' });
    const home = within(rail).getByRole('link', { name: 'Home' });
    expect(within(rail).getAllByRole('link')[0]).toBe(home);
    expect(home.getAttribute('aria-current')).toBe('page');
    expect(within(rail).getByRole('link', { name: 'Assignment' }).getAttribute('aria-current')).toBeNull();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Introduction to Python').getAttribute('aria-current')).toBe('page');

    const due = region('Due soon');
    expect(hrefOf(due, 'Recursion')).toBe('/course/1/assignment/5');
    expect(hrefOf(due, 'Quiz 2')).toBe('/course/1/quizzes/4/quiz-courses/7');
    expect(within(due).getByText('Not submitted')).toBeTruthy();
    expect(within(due).getByText('Late')).toBeTruthy();
    expect(within(due).getByText(/late submissions until Wed, May 13, 2026, 23:59/)).toBeTruthy();
    expect(within(due).getByText('Graded 7 / 10')).toBeTruthy();
    // A quiz that has not opened is not overdue: when it opens, not a red "Not submitted".
    const upcoming = within(due).getByRole('link', { name: 'Quiz 3' }).closest('li')!;
    expect(within(upcoming).queryByText('Not submitted')).toBeNull();
    expect(within(upcoming).getByText('Opens Thu, May 14, 2026, 09:00')).toBeTruthy();
    expect(within(upcoming).getByText('Closes Fri, May 15, 2026, 23:59')).toBeTruthy();
    expect(hrefOf(due, 'All assignments')).toBe('/course/1/assignment');

    expect(within(region('Open quizzes')).getByText('No quiz is waiting for you right now.')).toBeTruthy();

    const news = region('Unread announcements');
    expect(hrefOf(news, 'Room change')).toBe('/course/1/forum/9');
    expect(within(news).getByText('Unread')).toBeTruthy();
    expect(within(news).getByText(/Emily Carter/)).toBeTruthy();

    const replies = region('Replies to your posts');
    expect(hrefOf(replies, 'Why is my sort slow?')).toBe('/course/1/forum/11');
    expect(within(replies).getByText('2 new replies · latest by Hanako Aoki, 2 hours ago')).toBeTruthy();

    const results = region('Latest results');
    expect(hrefOf(results, 'Sorting')).toBe('/course/1/submission/31');
    expect(hrefOf(results, 'Quiz 1')).toBe('/course/1/quizzes/4/quiz-submissions/40');
    expect(within(results).getByText('10 / 10')).toBeTruthy();

    // Feedback released lately: the counted score with its maximum, and the regrade still waiting.
    const feedback = region('New feedback');
    expect(hrefOf(feedback, 'Sorting')).toBe('/course/1/submission/31');
    expect(within(feedback).getByText('8.5 / 12')).toBeTruthy();
    expect(within(feedback).getByText('1 regrade request waiting')).toBeTruthy();
    expect(within(feedback).getByText('Released 3 hours ago')).toBeTruthy();

    // The event starts on 14 May in Tokyo (16:00 UTC on the 13th): the calendar opens on that day.
    expect(hrefOf(region('Upcoming events'), 'Lecture 5')).toBe('/course/1/calendar?date=2026-05-14&event=3');
  });

  it('shows editors what needs them, names shortened to a few and capped counts', async () => {
    stubFetch(server('editor', () => json(200, EDITOR)));
    renderApp('/course/1');
    await screen.findByRole('region', { name: 'Submissions that need attention' }, SLOW);

    const grading = region('Submissions that need attention');
    expect(hrefOf(grading, '#77 · Sorting')).toBe('/course/1/submission/77');
    expect(within(grading).getByText('Internal error')).toBeTruthy();
    expect(within(grading).getByText('The sandbox could not start.')).toBeTruthy();

    expect(within(region('Closing this week')).getByText(/No assignment or quiz closes/)).toBeTruthy();

    const missing = region('Missing submissions');
    expect(hrefOf(missing, 'Recursion')).toBe('/course/1/assignment/5');
    expect(within(missing).getByText('7 students missing')).toBeTruthy();
    expect(within(missing).getByText('Hanako Aoki, Jiro Suzuki and 5 more')).toBeTruthy();

    const questions = region('Unanswered questions');
    expect(within(questions).getByText('50+')).toBeTruthy();
    expect(hrefOf(questions, 'Why is my sort slow?')).toBe('/course/1/forum/11');

    expect(screen.getByText('120 students')).toBeTruthy();
    expect(screen.getByRole('link', { name: '4 live workbook sessions' }).getAttribute('href')).toBe(
      '/course/1/workbook',
    );
    expect(screen.getByRole('link', { name: '2 open regrade requests' }).getAttribute('href')).toBe(
      '/course/1/regrade-requests',
    );
  });

  it('names the reader’s zone beside deadlines when the course’s differs', async () => {
    process.env.TZ = 'Europe/Paris';
    try {
      stubFetch(server('editor', () => json(200, EDITOR)));
      renderApp('/course/1');
      const missing = await screen.findByRole('region', { name: 'Missing submissions' }, SLOW);
      // 23:59 in Tokyo is 16:59 in Paris (summer time): the card says which clock it means.
      expect(within(missing).getByText('Was due Mon, May 11, 2026, 16:59 GMT+2')).toBeTruthy();
    } finally {
      process.env.TZ = 'Asia/Tokyo';
    }
  });

  it('shows cards of skeletons while loading, and a retry when the call fails', async () => {
    let fail = false;
    let release: (value: Response) => void = () => undefined;
    stubFetch(
      server('student', () =>
        fail
          ? json(500, { detail: 'Internal server error.', code: 'internal_error' })
          : new Promise<Response>((resolve) => {
              release = resolve;
            }),
      ),
    );
    renderApp('/course/1');
    const busy = await screen.findByRole('status', { name: 'Loading…' }, SLOW);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    fail = true;
    release(json(500, { detail: 'Internal server error.', code: 'internal_error' }));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('speaks Japanese', async () => {
    useSession.setState({ displayLang: 'ja' });
    stubFetch(server('student', () => json(200, STUDENT)));
    renderApp('/course/1');
    expect(await screen.findByRole('region', { name: '締切が近い課題・小テスト' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('region', { name: '未読のお知らせ' })).toBeTruthy();
    expect(screen.getByText('未提出')).toBeTruthy();
    expect(screen.getByText('採点済み 7 / 10')).toBeTruthy();
    expect(screen.getByText('いま受験できる小テストはありません。')).toBeTruthy();
    // Authors' names follow the one rule of the language, as every list of people does.
    expect(within(region('未読のお知らせ')).getByText(/Carter Emily/)).toBeTruthy();
    expect(within(region('あなたの投稿への返信')).getByText(/Aoki Hanako/)).toBeTruthy();
    expect(within(region('新しいフィードバック')).getByText('再採点の依頼 1 件が回答待ち')).toBeTruthy();
  });
});
