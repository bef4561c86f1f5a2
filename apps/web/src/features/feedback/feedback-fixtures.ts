import type { RegradeRequest, ReviewComment, StudentFeedback } from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';
import { ASSIGNMENT_DETAIL, COURSE, iso, submission } from '../submissions/submission-fixtures.ts';

/* A released review of submission 42 (Taro's), shaped as the API answers it. */

export const TARO = { id: 4, email: 'student1@example.com', first_name: 'Taro', last_name: 'Yamada' };
export const EMILY = { id: 2, email: 'emily@example.jp', first_name: 'Emily', last_name: 'Carter' };

export const CODE = ['def add(a, b):', '    return a - b', '', 'print(add(1, 2))', ''].join('\n');

export const SUBMISSION_DETAIL = {
  ...submission('Completed', { score: 8, max_score: 10, graded_at: iso(0) }),
  can_manage: false,
  evaluations: [],
  files: [
    {
      id: 9,
      submission_id: 42,
      filename: 'main.py',
      url: '/files/main.py',
      size: CODE.length,
      created_at: iso(0),
      content: CODE,
    },
  ],
};

export function comment(id: number, fields: Partial<ReviewComment> = {}): ReviewComment {
  return {
    id,
    parent_id: null,
    author: EMILY,
    by_student: false,
    filename: 'main.py',
    line_start: 2,
    line_end: 2,
    body: 'This **subtracts**.',
    rubric_item_id: null,
    created_at: iso(-60_000 + id),
    updated_at: iso(-60_000 + id),
    ...fields,
  };
}

export function regradeRequest(id: number, fields: Partial<RegradeRequest> = {}): RegradeRequest {
  return {
    id,
    submission_id: 42,
    assignment_id: 5,
    assignment_title: ASSIGNMENT_DETAIL.assignment.title,
    course_id: 1,
    user: TARO,
    rubric_item_id: 11,
    rubric_item_title: 'Adds correctly',
    comment_id: null,
    reason: 'I think it adds.',
    status: 'open',
    answer: '',
    answered_by: null,
    answered_at: null,
    created_at: iso(-1000),
    ...fields,
  };
}

export const RELEASED: StudentFeedback = {
  submission_id: 42,
  released: true,
  released_at: iso(-3_600_000),
  score: {
    autograde_score: 8,
    autograde_max: 10,
    rubric_points: 1,
    adjustment: -0.5,
    total: 8.5,
    max_score: 12,
  },
  settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 2 },
  rubric: [
    {
      id: 11,
      group: 'Correctness',
      title: 'Adds correctly',
      description: '',
      points: 2,
      position: 0,
      selected: false,
    },
    {
      id: 12,
      group: 'Correctness',
      title: 'Wrong operator',
      description: '',
      points: -1,
      position: 1,
      selected: true,
    },
    {
      id: 13,
      group: 'Style',
      title: 'Clear names',
      description: 'Names say what they hold.',
      points: 2,
      position: 2,
      selected: true,
    },
  ],
  adjustment_reason: 'Late by a day',
  comment: 'Good start. See the **comment** on line 2.',
  grader: EMILY,
  comments: [
    comment(21, { rubric_item_id: 12 }),
    comment(22, { parent_id: 21, author: TARO, by_student: true, body: 'Oh, I see.' }),
    comment(23, { line_start: 4, line_end: 4, body: 'Print the result with a label.' }),
  ],
  regrade_requests: [],
};

export const UNRELEASED: StudentFeedback = {
  submission_id: 42,
  released: false,
  released_at: null,
  score: null,
  settings: null,
  rubric: [],
  adjustment_reason: '',
  comment: '',
  grader: null,
  comments: [],
  regrade_requests: [],
};

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/** Submission 42's page with `feedback` as its review; `extra` answers first (a reply, a refusal). */
export function feedbackServer(
  feedback: () => StudentFeedback,
  detail = SUBMISSION_DETAIL,
  ...extra: Route[]
) {
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    for (const route of extra) {
      const response = route(request, url);
      if (response) return response;
    }
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, COURSE);
    if (path === '/api/Submission/42/') return json(200, detail);
    if (path === '/api/Submission/42/feedback/') return json(200, feedback());
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
