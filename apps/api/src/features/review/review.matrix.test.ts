import { call } from '../../../test/harness.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { createReviewWorld, gradeAndRelease, type ReviewWorld } from './testing.ts';

/**
 * Every route of the review × every kind of caller → the exact status: editors of the course and staff
 * grade; the author reads the released review, replies and asks; a classmate and another course's editor
 * learn nothing exists (404); anonymous 401.
 */
type Caller = 'anonymous' | 'student' | 'classmate' | 'editor' | 'otherEditor' | 'staff';
type Row = MatrixRow<ReviewWorld, Caller>;

const editors = (ok: number) => ({
  anonymous: 401,
  student: 403,
  classmate: 403,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
/** Routes of one submission: the classmate cannot see it at all. */
const submissionEditors = (ok: number) => ({ ...editors(ok), classmate: 404 });

const rubric = (w: ReviewWorld) => ({
  settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 2 },
  items: [{ id: w.items[0], title: 'Readable layout', points: 2 }],
});

async function savedComment(w: ReviewWorld, t: Parameters<typeof call>[0]) {
  const res = await call(t, 'POST', `/api/Course/${w.course.id}/saved-comments/`, {
    token: w.tokens.staff,
    body: { title: 'Naming', body: 'Use names that say what a value is.' },
  });
  return (res.body as { id: number }).id;
}

const MATRIX: Row[] = [
  {
    method: 'GET',
    route: '/api/Course/{id}/assignments/{assignment_id}/rubric/',
    url: (w) => w.rubricUrl,
    expected: editors(200),
  },
  {
    method: 'PUT',
    route: '/api/Course/{id}/assignments/{assignment_id}/rubric/',
    url: (w) => w.rubricUrl,
    body: rubric,
    expected: editors(200),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/assignments/{assignment_id}/reviews/',
    url: (w) => `${w.assignmentUrl}/reviews/`,
    expected: editors(200),
  },
  {
    method: 'POST',
    route: '/api/Course/{id}/assignments/{assignment_id}/reviews/release/',
    url: (w) => `${w.assignmentUrl}/reviews/release/`,
    body: () => ({ scope: 'all' }),
    expected: editors(200),
  },
  {
    method: 'POST',
    route: '/api/Course/{id}/assignments/{assignment_id}/reviews/retract/',
    url: (w) => `${w.assignmentUrl}/reviews/retract/`,
    expected: editors(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/{id}/review/',
    url: (w) => w.reviewUrl,
    expected: submissionEditors(200),
  },
  {
    method: 'PUT',
    route: '/api/Submission/{id}/review/',
    fresh: true,
    url: (w) => w.reviewUrl,
    body: (w) => ({ version: 0, status: 'draft', selected_item_ids: [w.items[1]] }),
    expected: submissionEditors(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/{id}/review/audit/',
    url: (w) => `${w.reviewUrl}audit/`,
    expected: submissionEditors(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/{id}/feedback/',
    url: (w) => `/api/Submission/${w.completed.id}/feedback/`,
    expected: { ...submissionEditors(200), student: 200 },
  },
  {
    method: 'POST',
    route: '/api/Submission/{id}/comments/',
    url: (w) => `/api/Submission/${w.completed.id}/comments/`,
    body: () => ({ filename: 'helper.py', line_start: 1, line_end: 2, body: 'Consider a docstring.' }),
    expected: submissionEditors(201),
  },
  {
    method: 'POST',
    route: '/api/ReviewComment/{id}/replies/',
    url: async (w, cell) => `/api/ReviewComment/${(await gradeAndRelease(cell.t, w)).commentId}/replies/`,
    body: () => ({ body: 'Thank you!' }),
    expected: { ...submissionEditors(201), student: 201 },
  },
  {
    method: 'PUT',
    route: '/api/ReviewComment/{id}/',
    url: async (w, cell) => `/api/ReviewComment/${(await gradeAndRelease(cell.t, w)).commentId}/`,
    body: () => ({ body: 'Nice return statement.' }),
    // Written by staff: only staff changes it; those who see it are refused, the others learn nothing.
    expected: { ...submissionEditors(200), editor: 403 },
  },
  {
    method: 'DELETE',
    route: '/api/ReviewComment/{id}/',
    url: async (w, cell) => `/api/ReviewComment/${(await gradeAndRelease(cell.t, w)).commentId}/`,
    expected: submissionEditors(204),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/saved-comments/',
    url: (w) => `/api/Course/${w.course.id}/saved-comments/`,
    expected: editors(200),
  },
  {
    method: 'POST',
    route: '/api/Course/{id}/saved-comments/',
    url: (w) => `/api/Course/${w.course.id}/saved-comments/`,
    body: () => ({ title: 'Docstring', body: 'Say what the function returns.' }),
    expected: editors(201),
  },
  {
    method: 'PUT',
    route: '/api/SavedComment/{id}/',
    url: async (w, cell) => `/api/SavedComment/${await savedComment(w, cell.t)}/`,
    body: () => ({ title: 'Names', body: 'Say what a value is.' }),
    expected: editors(200),
  },
  {
    method: 'DELETE',
    route: '/api/SavedComment/{id}/',
    url: async (w, cell) => `/api/SavedComment/${await savedComment(w, cell.t)}/`,
    expected: editors(204),
  },
  {
    method: 'POST',
    route: '/api/Submission/{id}/regrade-requests/',
    fresh: true,
    url: async (w, cell) => {
      await gradeAndRelease(cell.t, w);
      return `/api/Submission/${w.completed.id}/regrade-requests/`;
    },
    body: (w) => ({ rubric_item_id: w.items[0], reason: 'My layout follows PEP 8.' }),
    // Only the author asks: editors see the submission and are refused.
    expected: { ...submissionEditors(403), student: 201 },
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/regrade-requests/',
    url: (w) => `/api/Course/${w.course.id}/regrade-requests/`,
    expected: editors(200),
  },
  {
    method: 'POST',
    route: '/api/RegradeRequest/{id}/answer/',
    url: async (w, cell) => {
      await gradeAndRelease(cell.t, w);
      const asked = await call(cell.t, 'POST', `/api/Submission/${w.completed.id}/regrade-requests/`, {
        token: w.tokens.student,
        body: { rubric_item_id: w.items[1], reason: 'Names are clear.' },
      });
      const id = (asked.body as { id?: number }).id;
      if (id !== undefined) return `/api/RegradeRequest/${id}/answer/`;
      const list = await call(cell.t, 'GET', `/api/Course/${w.course.id}/regrade-requests/`, {
        token: w.tokens.staff,
      });
      return `/api/RegradeRequest/${(list.body as { results: { id: number }[] }).results[0]!.id}/answer/`;
    },
    body: () => ({ answer: 'Agreed: points added.' }),
    expected: editors(200),
  },
];

describeMatrix<ReviewWorld, Caller>({
  title: 'review: authorization matrix',
  callers: ['anonymous', 'student', 'classmate', 'editor', 'otherEditor', 'staff'],
  world: createReviewWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) =>
    /\/(rubric|reviews|review|feedback|comments|saved-comments|regrade-requests)\//.test(path) ||
    /\/(ReviewComment|SavedComment|RegradeRequest)\//.test(path),
});
