import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  CourseRole,
  SimilarityPairView,
  SimilarityReport,
  SimilarityReportSummary,
} from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assignmentCourse, editorAssignment } from '../../test/assignment.ts';
import { courseAs } from '../../test/course.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { fragmentOfLine } from './SimilarityPairPanel.tsx';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };
const AT = '2026-04-01T09:00:00.000Z';
const PAGE = '/course/1/assignment/7/similarity';

const TARO = { id: 4, email: 'taro@example.jp', first_name: 'Taro', last_name: 'Yamada' };
const ANN = { id: 5, email: 'ann@example.jp', first_name: 'Ann', last_name: 'Abe' };

const summary = (status: SimilarityReportSummary['status']): SimilarityReportSummary => ({
  id: 3,
  assignment_id: 7,
  course_id: 1,
  include_course_id: null,
  status,
  error: null,
  created_at: AT,
  finished_at: status === 'done' ? AT : null,
  submission_count: status === 'done' ? 12 : 0,
  pair_count: status === 'done' ? 40 : 0,
});

const FRAGMENT = { left: { start_line: 2, end_line: 3 }, right: { start_line: 1, end_line: 2 }, tokens: 24 };
const REPORT: SimilarityReport = {
  ...summary('done'),
  threshold: 0.5,
  pairs_at_threshold: 1,
  pairs: [
    {
      left: { user: TARO, submission_id: 11, course_id: 1 },
      right: { user: ANN, submission_id: 12, course_id: 1 },
      similarity: 0.87,
      longest_fragment: { tokens: 93, lines: 12 },
      overlap: { tokens: 298 },
      fragments: [FRAGMENT],
    },
  ],
  clusters: [{ user_ids: [4, 5], size: 2, max_similarity: 0.87 }],
};
const PAIR: SimilarityPairView = {
  report_id: 3,
  similarity: 0.87,
  longest_fragment: { tokens: 93, lines: 12 },
  overlap: { tokens: 298 },
  left: { user: TARO, submission_id: 11, course_id: 1, content: 'import sys\ndef f(a):\n    return a\n' },
  right: { user: ANN, submission_id: 12, course_id: 1, content: 'def g(b):\n    return b\n' },
  fragments: [FRAGMENT],
};

/** The assignment as its editor reads it: in this course and in last year's (course 2). */
const ASSIGNMENT = {
  assignment: editorAssignment({
    courses: [assignmentCourse(1), assignmentCourse(2, { course_title: 'Python 2025' })],
  }),
  course: assignmentCourse(1),
  accepts_submissions: true,
  is_late_period: false,
  files: [],
  can_edit: true,
};

/** REPORT compared with course `included`: its right-hand student comes from there. */
const withCourse = (included: number): SimilarityReport => ({
  ...REPORT,
  include_course_id: included,
  pairs: REPORT.pairs.map((p) => ({ ...p, right: { ...p.right, course_id: included } })),
});

/**
 * The report list answers `statuses` in turn (the last one stays; `none`: no report yet); `included`: the
 * other course its reports compare with.
 */
function server(
  role: CourseRole,
  statuses: ('none' | SimilarityReportSummary['status'])[],
  included: number | null = null,
) {
  let listed = 0;
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, courseAs(role));
    if (path === '/api/Assignment/7/CourseSpecificDetail/') return json(200, ASSIGNMENT);
    if (path === '/api/Course/1/assignments/7/similarity/' && request.method === 'POST')
      return json(202, { ...summary('queued'), include_course_id: included });
    if (path === '/api/Course/1/assignments/7/similarity/') {
      const status = statuses[Math.min(listed, statuses.length - 1)];
      listed += 1;
      const results =
        status && status !== 'none' ? [{ ...summary(status), include_course_id: included }] : [];
      return json(200, { results });
    }
    if (path === '/api/Similarity/3/') return json(200, included ? withCourse(included) : REPORT);
    if (path === '/api/Similarity/3/pair/11/12/') return json(200, PAIR);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

function signInAs(role: CourseRole, editorCourses = [1]) {
  signInAsStudent();
  if (role === 'editor') useSession.setState({ userId: 2, roles: ['instructor'], editorCourses });
}

beforeEach(() => signInAsStudent());

describe('the similarity report page', () => {
  it('is not there for a student, who never asks for a report', async () => {
    signInAs('student');
    const { requests } = stubFetch(server('student', ['done']));
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
    expect(requests.some((r) => r.url.includes('imilarity'))).toBe(false);
  });

  it('starts a report and polls it while it runs', async () => {
    signInAs('editor');
    const { requests } = stubFetch(server('editor', ['none', 'queued', 'running']));
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Similarity report' }, SLOW)).toBeTruthy();
    expect(await screen.findByText('No report yet. Start one to compare the submissions.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start a report' }));
    expect(await screen.findByText('Waiting to start')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST' && r.url.includes('/similarity/'))).toBe(true);
    await waitFor(() => expect(screen.getByText('Comparing')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByRole('button', { name: 'Start a report' })).toHaveProperty('disabled', true);
    expect(requests.filter((r) => r.url.includes('/similarity/')).length).toBeGreaterThan(1);
  });

  it('shows the pairs, the clusters, and a pair side by side with the fragment marked', async () => {
    signInAs('editor');
    const { requests } = stubFetch(server('editor', ['done']));
    renderApp(PAGE);
    const table = await screen.findByRole('table', { name: 'Similar pairs' }, SLOW);
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Taro Yamada')).toBeTruthy();
    expect(within(row!).getByText('Ann Abe')).toBeTruthy();
    expect(within(row!).getByText('87 %')).toBeTruthy();
    expect(within(row!).getByText('93 tokens, 12 lines')).toBeTruthy();
    expect(within(row!).getByText('298 tokens')).toBeTruthy();
    expect(screen.getByText('Taro Yamada, Ann Abe')).toBeTruthy();
    expect(screen.getByText('12 submissions compared; 40 pairs share some code.')).toBeTruthy();
    expect(requests.some((r) => r.url.includes('/api/Similarity/3/?threshold=0.5'))).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: '90 %' }));
    await waitFor(() => expect(requests.some((r) => r.url.includes('threshold=0.9'))).toBe(true));

    fireEvent.click(within(row!).getByRole('button', { name: 'Compare Taro Yamada and Ann Abe' }));
    const left = await screen.findByLabelText('Code of taro@example.jp');
    const marks = left.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['2  def f(a):', '3      return a']);
    expect(screen.getByLabelText('Code of ann@example.jp').querySelectorAll('mark')).toHaveLength(2);
  });

  it('offers no other course to an editor of this course alone', async () => {
    signInAs('editor');
    const { requests } = stubFetch(server('editor', ['none']));
    renderApp(PAGE);
    expect(
      await screen.findByText('No report yet. Start one to compare the submissions.', {}, SLOW),
    ).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.url.includes('CourseSpecificDetail'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('combobox', { name: 'Also compare with' })).toBeNull();
  });

  it('offers the other courses the editor edits, and sends the chosen one', async () => {
    signInAs('editor', [1, 2]);
    const { requests } = stubFetch(server('editor', ['none', 'queued'], 2));
    renderApp(PAGE);
    const picker = await screen.findByRole('combobox', { name: 'Also compare with' }, SLOW);
    expect(picker).toHaveProperty('value', 'This course only');
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Python 2025', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Start a report' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.body).toEqual({ include_course_id: 2 });
  });

  it("names each student's course in a report that includes another course", async () => {
    signInAs('editor', [1, 2]);
    stubFetch(server('editor', ['done'], 2));
    renderApp(PAGE);
    const table = await screen.findByRole('table', { name: 'Similar pairs' }, SLOW);
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Python')).toBeTruthy();
    expect(within(row!).getByText('Python 2025')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Also compare with' })).toBeTruthy();
  });
});

describe('fragmentOfLine', () => {
  it('maps each line of a side to the first fragment covering it', () => {
    const second = {
      left: { start_line: 3, end_line: 5 },
      right: { start_line: 9, end_line: 9 },
      tokens: 12,
    };
    expect([...fragmentOfLine([FRAGMENT, second], 'left')]).toEqual([
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 1],
    ]);
    expect([...fragmentOfLine([FRAGMENT, second], 'right')]).toEqual([
      [1, 0],
      [2, 0],
      [9, 1],
    ]);
  });
});
