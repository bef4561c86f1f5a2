import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PrecheckResult } from '@kadai/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import {
  ASSERTION_MESSAGE,
  ASSIGNMENT_DETAIL,
  COURSE,
  PYTEST_TEST,
  evaluation,
  iso,
  precheckTest,
  submission,
} from './submission-fixtures.ts';

const SMALL = precheckTest(1, 'Small numbers', 'Correct');
const MIXED: PrecheckResult = {
  status: 'Completed',
  message: '',
  score: 7,
  max_score: 10,
  not_run: 1,
  tests: [SMALL, PYTEST_TEST],
};

/** The server: the assignment page's calls, my submissions and the precheck answered by `precheck`. */
function server({
  precheck = () => json(200, MIXED),
  mine = [],
  detail,
}: {
  precheck?: () => Response | Promise<Response>;
  mine?: unknown[];
  detail?: unknown;
}) {
  return (request: RecordedRequest) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, COURSE);
    if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, ASSIGNMENT_DETAIL);
    if (path === '/api/Assignment/5/1/TestCase/') return json(200, { count: 0, results: [] });
    if (path === '/api/Assignment/5/total_score/') {
      return json(200, {
        assignment_id: 5,
        course_id: 1,
        total_points: 15,
        score: null,
        submission_id: null,
      });
    }
    if (path === '/api/Leaderboard/5/1') {
      return json(200, {
        assignment_id: 5,
        course_id: 1,
        enabled: true,
        max_score: 15,
        entries: [],
        my_profile: { nickname: null, opt_out: false },
      });
    }
    if (path === '/api/Submission/Precheck/' && request.method === 'POST') return precheck();
    if (path === '/api/Submission/by-course/course/1/user/4/') {
      return json(200, { count: mine.length, limit: 10, offset: 0, results: mine, next_cursor: null });
    }
    if (path === '/api/Submission/42/' && detail) return json(200, detail);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

beforeEach(() => {
  signInAsStudent();
});

// Whole pages load lazily: on a busy machine a test takes longer than vitest's default 5 s.
describe('running the visible tests on the assignment page', { timeout: 20_000 }, () => {
  it('posts the Submit body to Precheck and shows the outcome and each test inline', async () => {
    const { requests } = stubFetch(server({}));
    renderApp('/course/1/assignment/5');
    const editor = await screen.findByRole('textbox', { name: 'Code (main.py)' });
    fireEvent.change(editor, { target: { value: 'def add(a, b):\n    return a + b\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run visible tests' }));

    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/Precheck/')).toBe(true));
    expect(requests.find((r) => r.url === '/api/Submission/Precheck/')?.body).toEqual({
      assignment_id: 5,
      course_id: 1,
      code: 'def add(a, b):\n    return a + b\n',
      files: [],
      upload_files_later: false,
    });
    // Nothing was submitted.
    expect(requests.some((r) => r.url === '/api/Submission/Submit/')).toBe(false);

    const region = await screen.findByRole('region', { name: 'Result of the visible tests' });
    const outcome = within(region).getByText('3 of 6 visible tests passed · 7/10 points');
    const alert = outcome.closest('[data-outcome]');
    expect(alert?.getAttribute('data-outcome')).toBe('some');
    expect(alert?.textContent).toContain('Some tests failed');
    // Only the one-line status is announced, not every test; the result is a region of its own.
    expect(screen.getByRole('status').textContent).toBe('3 of 6 visible tests passed · 7/10 points');
    expect(
      screen.getByText(
        '1 hidden test case is not run here; it counts when you submit. Nothing was submitted.',
      ),
    ).toBeTruthy();

    // The pytest file, the first failing test, is open at its first failing item's message.
    const items = screen.getByRole('list', { name: 'Tests in Unit tests' });
    const rows = within(items).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    expect(within(rows[1]!).getByLabelText('Message').textContent).toBe(ASSERTION_MESSAGE);
    expect(screen.getByRole('button', { name: /Unit tests/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: /Small numbers/ }).getAttribute('aria-expanded')).toBe('false');
  });

  it('is busy while running, then says how long to wait when runs are rate limited', async () => {
    let answer: (response: Response) => void = () => undefined;
    const held = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    stubFetch(server({ precheck: () => held }));
    renderApp('/course/1/assignment/5');
    await screen.findByRole('textbox', { name: 'Code (main.py)' });
    const run = screen.getByRole('button', { name: 'Run visible tests' });
    fireEvent.click(run);
    const running = await screen.findAllByText('Running the visible tests…');
    expect(running[0]!.closest('[aria-busy="true"]')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Running the visible tests…');
    expect(run.hasAttribute('disabled')).toBe(true);

    answer(json(429, { detail: 'Too many requests.', code: 'throttled' }, { 'Retry-After': '30' }));
    expect(await screen.findByText('Too many runs; try again in 30 s.')).toBeTruthy();
    expect(run.hasAttribute('disabled')).toBe(false);
    expect(screen.getByText('Could not run the visible tests')).toBeTruthy();
  });

  it('says the deadline has passed on 403 closed', async () => {
    stubFetch(server({ precheck: () => json(403, { detail: 'Closed.', code: 'closed' }) }));
    renderApp('/course/1/assignment/5');
    await screen.findByRole('textbox', { name: 'Code (main.py)' });
    fireEvent.click(screen.getByRole('button', { name: 'Run visible tests' }));
    expect(await screen.findByText('The deadline has passed; submissions are closed.')).toBeTruthy();
  });

  it('shows why the files would be refused', async () => {
    const refused: PrecheckResult = {
      status: 'InvalidFormat',
      message: 'main.py is missing.',
      score: 0,
      max_score: 10,
      not_run: 0,
      tests: [],
    };
    stubFetch(server({ precheck: () => json(200, refused) }));
    renderApp('/course/1/assignment/5');
    await screen.findByRole('textbox', { name: 'Code (main.py)' });
    fireEvent.click(screen.getByRole('button', { name: 'Run visible tests' }));
    expect(await screen.findByText('main.py is missing.')).toBeTruthy();
    const region = screen.getByRole('region', { name: 'Result of the visible tests' });
    expect(within(region).getByText('InvalidFormat')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('InvalidFormat');
  });
});

describe('the latest result on the assignment page', { timeout: 20_000 }, () => {
  const graded = (extra: Record<string, unknown>) =>
    submission('Completed', { score: 7, graded_at: iso(0), ...extra });

  it('shows the outcome in colour with each test, the first failing visible one opened', async () => {
    const hiddenLarge = evaluation(precheckTest(3, 'Large numbers', 'Wrong'), 'hidden');
    const detail = {
      ...graded({}),
      can_manage: false,
      evaluations: [evaluation(SMALL), evaluation(PYTEST_TEST), hiddenLarge],
    };
    stubFetch(server({ mine: [graded({})], detail }));
    renderApp('/course/1/assignment/5');

    const region = await screen.findByRole('region', { name: 'Latest result' });
    const summary = await within(region).findByText('3 of 7 tests passed · 7/15 points');
    const alert = summary.closest('[data-outcome]');
    expect(alert?.getAttribute('data-outcome')).toBe('some');
    expect(alert?.textContent).toContain('Some tests failed');
    expect(within(region).getByRole('link', { name: 'Submission #42' })).toBeTruthy();
    expect(
      within(region)
        .getByRole('button', { name: /Unit tests/ })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    const failing = within(within(region).getByRole('list', { name: 'Tests in Unit tests' })).getAllByRole(
      'listitem',
    )[1]!;
    expect(within(failing).getByLabelText('Message').textContent).toBe(ASSERTION_MESSAGE);
  });

  it('says when every test passed', async () => {
    const detail = { ...graded({ score: 15 }), can_manage: false, evaluations: [evaluation(SMALL)] };
    stubFetch(server({ mine: [graded({ score: 15 })], detail }));
    renderApp('/course/1/assignment/5');
    const region = await screen.findByRole('region', { name: 'Latest result' });
    const summary = await within(region).findByText('1 of 1 test passed · 15/15 points');
    expect(summary.closest('[data-outcome]')?.getAttribute('data-outcome')).toBe('all');
    expect(within(region).getByText('All tests passed')).toBeTruthy();
  });

  it('is absent before a first submission', async () => {
    stubFetch(server({}));
    renderApp('/course/1/assignment/5');
    const mine = await screen.findByRole('region', { name: 'My submissions' });
    expect(await within(mine).findByText('No submissions yet.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Latest result' })).toBeNull();
  });
});
