import { createSubmissionWorld, upload, type SubmissionWorld } from './testing.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of submissions, evaluations, scores, final selection, CSV and leaderboards × every kind of
 * caller → the exact status. "student" is the author of the world's submissions, "classmate" another
 * student of the same course. apps/api/test/matrix.ts walks the rows.
 */
type Caller = 'anonymous' | 'student' | 'classmate' | 'editor' | 'otherEditor' | 'staff';
type World = SubmissionWorld;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'classmate', 'editor', 'otherEditor', 'staff'];

/** The author's submission: the author and the course's managers see it; everyone else gets 404. */
const own = (ok: number) => ({
  anonymous: 401,
  student: ok,
  classmate: 404,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
/** The author's own files: the managers who see it get 403. */
const authorOnly = (ok: number) => ({
  anonymous: 401,
  student: ok,
  classmate: 404,
  editor: 403,
  otherEditor: 404,
  staff: 403,
});
/** Managers of the course; its students 403 (or 404 for one submission they cannot see). */
const managers = (ok: number, classmate = 403) => ({
  anonymous: 401,
  student: 403,
  classmate,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
const members = (ok: number) => ({
  anonymous: 401,
  student: ok,
  classmate: ok,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});
const anyone = (ok: number) => ({
  anonymous: 401,
  student: ok,
  classmate: ok,
  editor: ok,
  otherEditor: ok,
  staff: ok,
});

const selectFinal = (w: World) =>
  `/api/Submission/SelectFinal/${w.assignment.id}/${w.course.id}/${w.completed.id}/`;

const MATRIX: Row[] = [
  {
    method: 'POST',
    route: '/api/Submission/Submit/',
    url: () => '/api/Submission/Submit/',
    body: (w) => ({ assignment_id: w.assignment.id, course_id: w.course.id, code: 'print(3)\n' }),
    expected: members(201),
  },
  {
    method: 'POST',
    route: '/api/Submission/Precheck/',
    url: () => '/api/Submission/Precheck/',
    body: (w) => ({ assignment_id: w.assignment.id, course_id: w.course.id, code: 'print(3)\n' }),
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/{submission_id}/FileSubmission/',
    url: (w) => `/api/Submission/${w.completed.id}/FileSubmission/`,
    expected: own(200),
  },
  {
    method: 'POST',
    route: '/api/Submission/{submission_id}/FileSubmission/',
    // A name per caller: the same name twice is a conflict.
    send: (w, token, { t, caller }) =>
      upload(t, `/api/Submission/${w.pending.id}/FileSubmission/`, token, [
        { filename: `helper_${caller}.py`, content: 'X = 1\n' },
      ]),
    expected: authorOnly(201),
  },
  {
    method: 'DELETE',
    route: '/api/Submission/{submission_id}/FileSubmission/{id}/',
    url: (w) => `/api/Submission/${w.pending.id}/FileSubmission/${w.pendingFile.id}/`,
    expected: authorOnly(204),
  },
  { method: 'GET', route: '/api/Submission/', url: () => '/api/Submission/', expected: anyone(200) },
  {
    method: 'GET',
    route: '/api/Submission/by-course/course/{course_id}/',
    url: (w) => `/api/Submission/by-course/course/${w.course.id}/`,
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/by-course/course/{course_id}/user/{user_id}/',
    url: (w) => `/api/Submission/by-course/course/${w.course.id}/user/${w.users.student.id}/`,
    expected: own(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/{id}/',
    url: (w) => `/api/Submission/${w.completed.id}/`,
    expected: own(200),
  },
  {
    method: 'GET',
    route: '/api/Evaluation/',
    url: (w) => `/api/Evaluation/?submission=${w.completed.id}`,
    expected: own(200),
  },
  {
    method: 'POST',
    route: '/api/Score/{testcase_id}/{course_id}',
    url: (w) => `/api/Score/${w.visibleTest.id}/${w.course.id}`,
    expected: managers(200),
  },
  {
    method: 'POST',
    route: '/api/Score/{submission_id}/submission_specific/',
    url: (w) => `/api/Score/${w.pending.id}/submission_specific/`,
    expected: own(200),
  },
  {
    method: 'POST',
    route: '/api/Submission/Score/',
    url: () => '/api/Submission/Score/',
    body: (w) => ({ submission_id: w.completed.id, test_case_id: w.hiddenTest.id, status: 'Correct' }),
    expected: managers(200, 404),
  },
  {
    method: 'POST',
    route: '/api/Submission/{id}/cancel/',
    // Once canceled, a submission cannot be canceled again (409): each caller gets its own.
    fresh: true,
    url: (w) => `/api/Submission/${w.scheduled.id}/cancel/`,
    expected: managers(200, 404),
  },
  {
    method: 'POST',
    route: '/api/Submission/Regrade/{assignment_id}/{course_id}/',
    url: (w) => `/api/Submission/Regrade/${w.assignment.id}/${w.course.id}/`,
    expected: managers(200),
  },
  {
    method: 'POST',
    route: '/api/Submission/SelectFinal/{assignment_id}/{course_id}/{submission_id}/',
    url: selectFinal,
    expected: own(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/SelectFinal/{assignment_id}/{course_id}/{submission_id}/',
    url: selectFinal,
    expected: own(200),
  },
  {
    method: 'GET',
    route: '/api/Submission/csv/',
    url: (w) => `/api/Submission/csv/?assignment_id=${w.assignment.id}&course_id=${w.course.id}`,
    expected: managers(200),
  },
  {
    method: 'GET',
    route: '/api/Leaderboard/{assignment_id}/{course_id}',
    url: (w) => `/api/Leaderboard/${w.assignment.id}/${w.course.id}`,
    expected: members(200),
  },
  {
    method: 'GET',
    route: '/api/LeaderboardProfile/',
    url: () => '/api/LeaderboardProfile/',
    expected: anyone(200),
  },
  {
    method: 'PUT',
    route: '/api/LeaderboardProfile/',
    url: () => '/api/LeaderboardProfile/',
    body: () => ({ opt_out: true }),
    expected: anyone(200),
  },
];

const OWN_PREFIXES = [
  '/api/Submission/',
  '/api/Evaluation/',
  '/api/Score/',
  '/api/Leaderboard/',
  '/api/LeaderboardProfile/',
];
/** Under a prefix above but walked by another feature's matrix (quizzes, review.matrix.test.ts). */
const OTHER_FEATURES = ['/api/Submission/SubmitQuiz/'];
/** A submission's review, feedback, comments and regrade requests: review.matrix.test.ts. */
const REVIEW = /^\/api\/Submission\/\{id\}\/(review|feedback|comments|regrade-requests)\//;

describeMatrix<World, Caller>({
  title: 'submissions: authorization matrix',
  callers: CALLERS,
  world: createSubmissionWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) =>
    OWN_PREFIXES.some((p) => path.startsWith(p)) && !OTHER_FEATURES.includes(path) && !REVIEW.test(path),
});
