import { CommentCreate } from '@kadai/contracts';
import type {
  Review,
  ReviewComment,
  ReviewQueue,
  ReviewQueueRow,
  Rubric,
  RubricItem,
  SavedComment,
  SubmissionDetail,
} from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';
import { courseAs } from '../../test/course.ts';

/* A course with one assignment (7), three students and their gradings, shaped as the API answers. */

export const AT = '2026-04-01T09:00:00.000Z';
export const EDITOR = { id: 2, email: 'emily@example.jp', first_name: 'Emily', last_name: 'Carter' };
const student = (id: number, first: string, last: string) => ({
  id,
  email: `${first.toLowerCase()}@example.jp`,
  first_name: first,
  last_name: last,
});
export const TARO = student(4, 'Taro', 'Yamada');
export const ANN = student(5, 'Ann', 'Abe');
export const KEN = student(6, 'Ken', 'Sato');

const rubricItem = (id: number, title: string, points: number, uses = 0, group = ''): RubricItem => ({
  id,
  group,
  title,
  description: '',
  points,
  position: id,
  uses,
});
export const ITEMS = [
  rubricItem(1, 'Clear names', 2, 3, 'Style'),
  rubricItem(2, 'Comments', 1, 0, 'Style'),
  rubricItem(3, 'Off-by-one', -3, 1, 'Correctness'),
];
export const RUBRIC: Rubric = {
  assignment_id: 7,
  settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 5 },
  items: ITEMS,
  autograde_max: 10,
  max_score: 15,
  recomputed: 0,
};

const row = (
  user: typeof TARO,
  submission: number | null,
  status: ReviewQueueRow['status'],
): ReviewQueueRow => ({
  user,
  submission_id: submission,
  submitted_at: submission === null ? null : AT,
  autograde_score: submission === null ? null : 8,
  status,
  grader: status === 'none' ? null : EDITOR,
  total: status === 'none' ? null : 10,
  released_at: null,
  open_regrade_requests: 0,
});
export const QUEUE: ReviewQueue = {
  assignment_id: 7,
  assignment_title: 'Loops',
  course_id: 1,
  progress: { students: 3, submitted: 3, graded: 1, released: 0, unreleased: 2 },
  graders: [EDITOR],
  rows: [row(ANN, 20, 'graded'), row(TARO, 21, 'none'), row(KEN, 22, 'draft')],
};

export const CODE = 'def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n';

export function review(submissionId = 21, fields: Partial<Review> = {}): Review {
  return {
    submission_id: submissionId,
    assignment_id: 7,
    course_id: 1,
    user: TARO,
    status: 'none',
    version: 0,
    selected_item_ids: [],
    adjustment_reason: '',
    comment: '',
    score: {
      autograde_score: 8,
      autograde_max: 10,
      rubric_points: 0,
      adjustment: 0,
      total: 8,
      max_score: 15,
    },
    grader: null,
    graded_at: null,
    released_at: null,
    rubric: RUBRIC,
    comments: [],
    regrade_requests: [],
    ...fields,
  };
}

export function submission(id = 21): SubmissionDetail {
  return {
    id,
    assignment_id: 7,
    assignment_title: 'Loops',
    course_id: 1,
    user: TARO,
    status: 'Completed',
    message: '',
    score: 8,
    max_score: 10,
    is_final: true,
    is_late: false,
    is_reference: false,
    due_at: AT,
    created_at: AT,
    queued_at: AT,
    started_at: AT,
    graded_at: AT,
    queue_position: null,
    files: [
      {
        id: 1,
        submission_id: id,
        filename: 'main.py',
        url: '/files/1',
        size: CODE.length,
        created_at: AT,
        content: CODE,
      },
    ],
    evaluations: [],
    can_manage: true,
  };
}

export const SAVED: SavedComment[] = [
  {
    id: 31,
    course_id: 1,
    title: 'Name things',
    body: 'Use a descriptive name.',
    rubric_item_id: 1,
    uses: 12,
    created_by: EDITOR,
    updated_at: AT,
  },
  {
    id: 32,
    course_id: 1,
    title: 'Loop bound',
    body: 'Check the loop bound.',
    rubric_item_id: null,
    uses: 3,
    created_by: EDITOR,
    updated_at: AT,
  },
];

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/** Answers the review's API as the server would for an editor; `extra` answers first. */
export function reviewServer(...extra: Route[]) {
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    for (const route of extra) {
      const response = route(request, url);
      if (response) return response;
    }
    const path = url.pathname;
    const method = request.method;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, courseAs('editor'));
    if (path === '/api/Course/1/assignments/7/rubric/') {
      if (method === 'PUT') return json(200, { ...RUBRIC, recomputed: 3 });
      return json(200, RUBRIC);
    }
    if (path === '/api/Course/1/assignments/7/reviews/') {
      const status = url.searchParams.get('status');
      return json(200, { ...QUEUE, rows: QUEUE.rows.filter((r) => !status || r.status === status) });
    }
    const reviewMatch = /^\/api\/Submission\/(\d+)\/review\/$/.exec(path);
    if (reviewMatch) {
      const id = Number(reviewMatch[1]);
      if (method === 'PUT') return json(200, review(id, { status: 'graded', version: 1 }));
      return json(200, review(id));
    }
    const submissionMatch = /^\/api\/Submission\/(\d+)\/$/.exec(path);
    if (submissionMatch) return json(200, submission(Number(submissionMatch[1])));
    if (path === '/api/Submission/21/comments/' && method === 'POST') {
      const body = CommentCreate.parse(request.body);
      return json(201, {
        id: 90,
        parent_id: null,
        author: EDITOR,
        by_student: false,
        filename: body.filename,
        line_start: body.line_start,
        line_end: body.line_end,
        body: body.body,
        rubric_item_id: body.rubric_item_id,
        created_at: AT,
        updated_at: AT,
      } satisfies ReviewComment);
    }
    if (path === '/api/Course/1/saved-comments/') return json(200, { count: SAVED.length, results: SAVED });
    if (path.endsWith('/audit/')) return json(200, { count: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
