import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';

const NOW = Date.now();
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const DAY = 86_400_000;

const COURSE = {
  id: 1,
  title: 'Python',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: 'Asia/Tokyo',
  created_at: iso(-DAY),
  updated_at: iso(-DAY),
  my_role: 'student',
  editor_count: 1,
  student_count: 3,
};
const ASSIGNMENT = {
  view: 'student',
  id: 5,
  title: 'Sum of two numbers',
  statement: 'Read **two** numbers.',
  starter_code: 'a, b = map(int, input().split())\n',
  entry_file: 'main.py',
  required_files: [],
  allowed_extensions: ['.py'],
  max_files: 2,
  max_file_bytes: 1024,
  created_by: 2,
  created_at: iso(-DAY),
  updated_at: iso(-DAY),
  courses: [],
  total_points: 10,
  test_case_count: 2,
};
const DATES = {
  course_id: 1,
  course_title: 'Python',
  opens_at: iso(-DAY),
  due_at: iso(DAY),
  late_until: null,
  leaderboard_enabled: true,
  extended: false,
};
const DETAIL = {
  assignment: { ...ASSIGNMENT, courses: [DATES] },
  course: DATES,
  accepts_submissions: true,
  is_late_period: false,
  files: [],
  can_edit: false,
};

function submission(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 42,
    assignment_id: 5,
    assignment_title: ASSIGNMENT.title,
    course_id: 1,
    user: { id: 4, email: 'student1@example.com', first_name: 'Taro', last_name: 'Yamada' },
    status,
    message: '',
    score: null,
    max_score: 10,
    is_final: false,
    is_late: false,
    is_reference: false,
    due_at: DATES.due_at,
    created_at: iso(0),
    queued_at: iso(0),
    started_at: null,
    graded_at: null,
    queue_position: null,
    files: [],
    ...extra,
  };
}

/** The server: the submission list answers with the next state each time it is asked. */
function server(states: unknown[][]) {
  let listCalls = 0;
  const responder = (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, COURSE);
    if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, DETAIL);
    if (path === '/api/Assignment/5/1/TestCase/') return json(200, { count: 0, results: [] });
    if (path === '/api/Assignment/5/total_score/') {
      return json(200, {
        assignment_id: 5,
        course_id: 1,
        total_points: 10,
        score: null,
        submission_id: null,
      });
    }
    if (path === '/api/Leaderboard/5/1') {
      return json(200, {
        assignment_id: 5,
        course_id: 1,
        enabled: true,
        max_score: 10,
        entries: [],
        my_profile: { nickname: null, opt_out: false },
      });
    }
    if (path === '/api/Submission/Submit/' && request.method === 'POST')
      return json(201, submission('Scheduled'));
    // The final submission (none here): the page asks for it apart from the list it follows.
    if (path === '/api/Submission/by-course/course/1/user/4/' && url.searchParams.get('is_final')) {
      return json(200, { count: 0, limit: 1, offset: 0, results: [], next_cursor: null });
    }
    if (path === '/api/Submission/by-course/course/1/user/4/') {
      const results = states[Math.min(listCalls, states.length - 1)]!;
      listCalls += 1;
      return json(200, { count: results.length, limit: 10, offset: 0, results, next_cursor: null });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
  return { responder, listCalls: () => listCalls };
}

beforeEach(() => {
  signInAsStudent();
});

describe('submitting on the assignment page', () => {
  it('sends the starter code as JSON, then follows the submission until it is graded', async () => {
    const fake = server([
      [],
      [submission('Scheduled', { queue_position: 2 })],
      [submission('Executing', { started_at: iso(0) })],
      [submission('Completed', { score: 10, graded_at: iso(0) })],
    ]);
    const { requests } = stubFetch(fake.responder);
    renderApp('/course/1/assignment/5');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sum of two numbers' })).toBeTruthy();
    const editor = await screen.findByRole('textbox', { name: 'Code (main.py)' });
    expect((editor as HTMLTextAreaElement).value).toBe(ASSIGNMENT.starter_code);
    fireEvent.change(editor, { target: { value: 'a, b = map(int, input().split())\nprint(a + b)\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/Submit/')).toBe(true));
    expect(requests.find((r) => r.url === '/api/Submission/Submit/')?.body).toEqual({
      assignment_id: 5,
      course_id: 1,
      code: 'a, b = map(int, input().split())\nprint(a + b)\n',
      files: [],
      upload_files_later: false,
    });

    const mine = screen.getByRole('region', { name: 'My submissions' });
    expect(await within(mine).findByText('Position 2 in the grading queue')).toBeTruthy();
    expect(within(mine).getByText('Scheduled')).toBeTruthy();
    await waitFor(() => expect(within(mine).getByText('Completed')).toBeTruthy(), { timeout: 8000 });
    expect(within(mine).getByText('10 / 10')).toBeTruthy();

    // Finished: no more polling.
    const calls = fake.listCalls();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(fake.listCalls()).toBe(calls);
  }, 20_000);

  it('sends the same Idempotency-Key when Submit is pressed again after a failure, a new one after a success', async () => {
    const fake = server([[]]);
    let submits = 0;
    const { requests } = stubFetch((request) => {
      if (request.url === '/api/Submission/Submit/') {
        submits += 1;
        // The first answer is lost (a gateway that gave up); the submit may have been saved.
        if (submits === 1) return json(504, { detail: 'Gateway timeout.', code: 'gateway_timeout' });
      }
      return fake.responder(request);
    });
    renderApp('/course/1/assignment/5');
    const editor = await screen.findByRole('textbox', { name: 'Code (main.py)' });
    fireEvent.change(editor, { target: { value: 'print(1)\n' } });
    const submitsSent = () => requests.filter((r) => r.url === '/api/Submission/Submit/');
    const keyOf = (index: number) => submitsSent()[index]!.headers['idempotency-key'];
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submitsSent()).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Submit' }).hasAttribute('data-loading')).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submitsSent()).toHaveLength(2));
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(1)).toBe(keyOf(0));
    // Saved: pressing Submit again is a new submission of its own.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Submit' }).hasAttribute('data-loading')).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submitsSent()).toHaveLength(3));
    expect(keyOf(2)).not.toBe(keyOf(0));
  }, 20_000);

  it('refuses files the assignment does not accept before sending anything', async () => {
    const { requests } = stubFetch(server([[]]).responder);
    const { container } = renderApp('/course/1/assignment/5');
    await screen.findByRole('textbox', { name: 'Code (main.py)' });

    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]');
    expect(input).not.toBeNull();
    const notes = new File(['hello'], 'notes.md', { type: 'text/markdown' });
    const big = new File(['x'.repeat(2000)], 'big.py', { type: 'text/x-python' });
    fireEvent.change(input!, { target: { files: [notes, big] } });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('notes.md: this kind of file is not accepted (allowed: .py).');
    expect(alert.textContent).toMatch(/big\.py is 2 kB; at most 1 kB is allowed\./);
    expect(alert.textContent).toContain('3 files; at most 2 are allowed.');

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.some((r) => r.url === '/api/Submission/Submit/')).toBe(false);
  });

  it('shows the limits before anything is chosen', async () => {
    stubFetch(server([[]]).responder);
    renderApp('/course/1/assignment/5');
    expect(await screen.findByText('What you can submit')).toBeTruthy();
    expect(screen.getByText('Other files ending in: .py')).toBeTruthy();
    expect(screen.getByText('At most 2 files, 1 kB each')).toBeTruthy();
  });
});
