import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PygradeStatus, SnippetRunResult } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_DEFAULTS, useSession } from '../auth/session.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { CARDS_QUERY } from './layout.ts';
import { stubScreenMatching } from '../../test/media.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

/** Made when called: a worker may run this file minutes after loading it. */
function statusFixture(): PygradeStatus {
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
  return {
    queue_depth: 3,
    running: [
      {
        submission_id: 41,
        assignment_title: 'Mean of a list',
        course_id: 1,
        course_title: 'Introduction to Programming',
        status: 'Executing',
        queued_at: ago(20),
        started_at: ago(5),
        graded_at: null,
        grader_host: 'grader-a',
        score: null,
        max_score: null,
      },
    ],
    recent: [
      {
        submission_id: 40,
        assignment_title: 'Hello world',
        course_id: 1,
        course_title: 'Introduction to Programming',
        status: 'Completed',
        queued_at: ago(90),
        started_at: ago(80),
        graded_at: ago(78),
        grader_host: 'grader-a',
        score: 7,
        max_score: 10,
      },
    ],
    hosts: [
      {
        id: 'grader-a',
        hostname: 'grader-a.example.org',
        pid: 4242,
        started_at: ago(3600),
        last_seen_at: ago(3),
        alive: true,
        sandbox_ok: true,
        sandbox_detail: 'bubblewrap 0.8.0; Python 3.11.2; pytest 7.2.1',
        concurrency: 4,
        running: 1,
        graded: 120,
      },
      {
        id: 'grader-b',
        hostname: 'grader-b.example.org',
        pid: 7,
        started_at: ago(7200),
        last_seen_at: ago(600),
        alive: false,
        sandbox_ok: false,
        sandbox_detail: 'missing bubblewrap',
        concurrency: 2,
        running: 0,
        graded: 5,
      },
    ],
    sandbox: { ok: true, detail: 'bubblewrap 0.8.0; Python 3.11.2' },
  };
}

const RAN: SnippetRunResult = {
  exit_code: 0,
  signal: null,
  time_ms: 23,
  memory_kb: 9216,
  stdout: 'cba\n',
  stderr: '',
  limit: null,
};

function server({
  status = () => json(200, statusFixture()),
  run = () => json(200, RAN),
}: {
  status?: () => Response;
  run?: () => Response;
} = {}) {
  return (request: RecordedRequest) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Pygrade/status/') return status();
    if (path === '/api/Pygrade/run/' && request.method === 'POST') return run();
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

function signInAsEditor(): void {
  signInAsStudent();
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
}

const snippetBox = () => screen.getByRole('region', { name: 'Run a snippet' });

const asksForStatus = (requests: RecordedRequest[]) =>
  requests.some((request) => request.url.startsWith('/api/Pygrade/'));

describe('PyGrade, a page of the app', () => {
  beforeEach(() => {
    signInAsEditor();
  });

  it('shows an editor the queue, the jobs with course names, the hosts and the snippet box', async () => {
    stubFetch(server());
    renderApp('/pygrade/');
    expect(await screen.findByRole('heading', { level: 1, name: 'PyGrade' }, SLOW)).toBeTruthy();
    // The app's header, with the PyGrade tab as the current page.
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'PyGrade' }).getAttribute('aria-current')).toBe('page');

    expect(await screen.findByText('Sandbox: available', {}, SLOW)).toBeTruthy();
    const queue = screen.getByRole('region', { name: 'Grading queue' });
    expect(within(queue).getByText('Waiting to be graded').nextElementSibling?.textContent).toBe('3');
    expect(within(queue).getByText('1 of 2')).toBeTruthy();

    const running = screen.getByRole('table', { name: 'Running now' });
    const runningRow = within(running).getAllByRole('row')[1]!;
    expect(
      within(runningRow).getByRole('link', { name: 'Introduction to Programming' }).getAttribute('href'),
    ).toBe('/course/1');
    expect(within(runningRow).getByRole('link', { name: 'Submission #41' }).getAttribute('href')).toBe(
      '/course/1/submission/41',
    );
    expect(within(runningRow).getByText('Executing')).toBeTruthy();
    // The course is named, never shown as a bare id.
    expect(within(running).queryByRole('cell', { name: '1' })).toBeNull();

    const recent = screen.getByRole('table', { name: 'Recently graded' });
    expect(within(recent).getByText('7 / 10')).toBeTruthy();
    expect(within(recent).getByRole('columnheader', { name: 'Score' })).toBeTruthy();

    const hosts = screen.getByRole('table', { name: 'Grader hosts' });
    const [, alive, silent] = within(hosts).getAllByRole('row');
    expect(within(alive!).getByText('grader-a.example.org')).toBeTruthy();
    expect(within(alive!).getByText('Alive')).toBeTruthy();
    expect(within(alive!).getByText('1 of 4 slots')).toBeTruthy();
    expect(within(silent!).getByText('Silent')).toBeTruthy();
    expect(within(silent!).getByText('Not working')).toBeTruthy();
    expect(within(silent!).getByText('missing bubblewrap')).toBeTruthy();

    expect(
      within(snippetBox()).getByText(
        "Runs as main.py in a fresh sandbox with a test case's default limits. At most 10 runs a minute.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Code (main.py)' })).toBeTruthy();
  });

  it('runs a snippet with its input and shows the outcome and the output', async () => {
    const { requests } = stubFetch(server());
    renderApp('/pygrade/');
    const code = await screen.findByRole('textbox', { name: 'Code (main.py)' }, SLOW);
    fireEvent.change(code, { target: { value: 'print(input()[::-1])\n' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Standard input' }), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));

    const result = await screen.findByRole('region', { name: /^Result:/ });
    expect(requests.find((r) => r.url === '/api/Pygrade/run/')?.body).toEqual({
      code: 'print(input()[::-1])\n',
      stdin: 'abc',
    });
    expect(within(result).getByText(/Exit code 0 · 23 ms · 9 MB of memory/)).toBeTruthy();
    expect(within(result).getByLabelText('Standard output').textContent).toBe('cba\n');
    // Only the one-line outcome is announced.
    await waitFor(() =>
      expect(within(snippetBox()).getByRole('status').textContent).toBe(
        'Exit code 0 · 23 ms · 9 MB of memory',
      ),
    );
  });

  it('says how long to wait when snippets are rate limited, and why nothing ran without a sandbox', async () => {
    let answer = () => json(429, { detail: 'Too many.', code: 'throttled' }, { 'Retry-After': '12' });
    stubFetch(server({ run: () => answer() }));
    renderApp('/pygrade/');
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }, SLOW));
    expect(await screen.findByText('Too many runs; try again in 12 s.')).toBeTruthy();

    answer = () =>
      json(503, { detail: 'Snippets cannot run here: missing bubblewrap.', code: 'sandbox_unavailable' });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Snippets cannot run here: missing bubblewrap.')).toBeTruthy();
    const alert = within(snippetBox()).getByRole('alert');
    expect(within(alert).getByText(/^Code cannot run here: the sandbox is not available/)).toBeTruthy();
  });

  it('shows the lists as cards on a phone', async () => {
    stubScreenMatching(CARDS_QUERY);
    stubFetch(server());
    renderApp('/pygrade/');
    const running = await screen.findByRole('list', { name: 'Running now' }, SLOW);
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(running).getByRole('listitem');
    expect(within(card).getByRole('link', { name: 'Introduction to Programming' })).toBeTruthy();
    expect(within(card).getByText('Mean of a list')).toBeTruthy();
    const hosts = screen.getByRole('list', { name: 'Grader hosts' });
    expect(within(hosts).getAllByRole('listitem')).toHaveLength(2);
  });

  it('gives someone the server no longer counts as an editor NotFound', async () => {
    stubFetch(server({ status: () => json(403, { detail: 'No.', code: 'forbidden' }) }));
    renderApp('/pygrade/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
  });
});

describe('PyGrade for others', () => {
  it('gives a student NotFound and no PyGrade tab, and asks the server nothing', async () => {
    signInAsStudent();
    const { requests } = stubFetch(server());
    renderApp('/pygrade');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Course' })).toBeTruthy();
    expect(within(main).queryByRole('link', { name: 'PyGrade' })).toBeNull();
    expect(asksForStatus(requests)).toBe(false);
  });

  it('sends a signed-out visitor to sign in, and back here afterwards', async () => {
    useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
    const { requests } = stubFetch(server());
    const { router } = renderApp('/pygrade/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(useSession.getState().callback).toBe('/pygrade/');
    expect(asksForStatus(requests)).toBe(false);
  });

  it('shows staff the tab', async () => {
    signInAsStudent();
    useSession.setState({ is_staff: true });
    stubFetch(server());
    renderApp('/course');
    const main = await screen.findByRole('navigation', { name: 'Main' }, SLOW);
    expect(within(main).getByRole('link', { name: 'PyGrade' }).getAttribute('href')).toBe('/pygrade/');
  });
});
