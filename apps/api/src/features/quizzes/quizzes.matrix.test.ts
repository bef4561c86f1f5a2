import { ALL_KINDS, RIGHT, answersFor, createQuizWorld, minutesFromNow, type QuizWorld } from './testing.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of quizzes, quiz courses, attempts, submissions and results × every kind of caller → the
 * exact status. "student" took the world's quiz (submitted), "classmate" is another student of the same
 * course who has not started it, "otherStudent" studies another course (apps/api/test/matrix.ts walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'classmate' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = QuizWorld;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = [
  'anonymous',
  'student',
  'classmate',
  'otherStudent',
  'editor',
  'otherEditor',
  'staff',
];

const status = (student: number, classmate: number, editor: number, staff: number, outsider = 404) => ({
  anonymous: 401,
  student,
  classmate,
  otherStudent: outsider,
  editor,
  otherEditor: outsider,
  staff,
});
const anyone = (ok: number) => status(ok, ok, ok, ok, ok);
/** Members of the course see it; everyone else 404. */
const read = status(200, 200, 200, 200);
/** Editors of the course and staff; its students 403. */
const manage = (ok: number, editor = ok) => status(403, 403, editor, ok);
/** The student's own submission: the author and the course's managers. */
const own = status(200, 404, 200, 200);

const quiz = (w: World) => `/api/Quiz/${w.quiz.id}/`;
const inCourse = (w: World) => `?course_id=${w.course.id}`;
const window = (courseId: number) => ({
  course_id: courseId,
  opens_at: minutesFromNow(-60).toISOString(),
  closes_at: minutesFromNow(60).toISOString(),
});

const MATRIX: Row[] = [
  { method: 'GET', route: '/api/Quiz/', url: () => '/api/Quiz/', expected: anyone(200) },
  {
    method: 'POST',
    route: '/api/Quiz/',
    url: () => '/api/Quiz/',
    body: (w) => ({ title: 'New', questions: ALL_KINDS, courses: [window(w.course.id)] }),
    expected: status(403, 403, 201, 201, 403),
  },
  {
    method: 'GET',
    route: '/api/Quiz/CourseSpecific/',
    url: (w) => `/api/Quiz/CourseSpecific/${inCourse(w)}`,
    expected: read,
  },
  { method: 'GET', route: '/api/Quiz/{id}/', url: quiz, expected: read },
  {
    method: 'PUT',
    route: '/api/Quiz/{id}/',
    url: (w) => `/api/Quiz/${w.draft.id}/`,
    body: () => ({ title: 'Replaced', description: '', questions: ALL_KINDS.slice(0, 1) }),
    expected: manage(200),
  },
  {
    method: 'PATCH',
    route: '/api/Quiz/{id}/',
    url: quiz,
    body: () => ({ title: 'Renamed' }),
    expected: manage(200),
  },
  // Students have submitted: deleting is for staff only.
  { method: 'DELETE', route: '/api/Quiz/{id}/', url: quiz, expected: manage(204, 409) },
  {
    method: 'GET',
    route: '/api/Quiz/{id}/CourseSpecificDetail/',
    url: (w) => `${quiz(w)}CourseSpecificDetail/${inCourse(w)}`,
    expected: read,
  },
  {
    // The student submitted and answers are not visible yet: 403 `answers_not_visible`.
    method: 'GET',
    route: '/api/Quiz/{id}/QuizContent/',
    url: (w) => `${quiz(w)}QuizContent/${inCourse(w)}`,
    expected: status(403, 200, 200, 200),
  },
  { method: 'GET', route: '/api/quizzes/', url: () => '/api/quizzes/', expected: anyone(200) },
  { method: 'GET', route: '/api/quizzes/{id}/', url: (w) => `/api/quizzes/${w.quiz.id}/`, expected: read },
  { method: 'GET', route: '/api/quiz-courses/', url: () => '/api/quiz-courses/', expected: anyone(200) },
  {
    method: 'POST',
    route: '/api/quiz-courses/',
    url: () => '/api/quiz-courses/',
    // Giving the quiz to the spare course twice conflicts: the editor's 201 would make staff's a 409.
    fresh: true,
    body: (w) => {
      const { course_id: course, ...dates } = window(w.spareCourse.id);
      return { quiz: w.quiz.id, course, ...dates };
    },
    expected: manage(201),
  },
  {
    method: 'GET',
    route: '/api/quiz-courses/{id}/',
    url: (w) => `/api/quiz-courses/${w.quizCourse.id}/`,
    expected: read,
  },
  {
    method: 'PATCH',
    route: '/api/quiz-courses/{id}/',
    url: (w) => `/api/quiz-courses/${w.quizCourse.id}/`,
    body: () => ({ answers_visible_at: minutesFromNow(60).toISOString() }),
    expected: manage(200),
  },
  {
    method: 'DELETE',
    route: '/api/quiz-courses/{id}/',
    url: (w) => `/api/quiz-courses/${w.quizCourse.id}/`,
    expected: manage(204, 409),
  },
  {
    method: 'GET',
    route: '/api/quiz-courses/{id}/results/',
    url: (w) => `/api/quiz-courses/${w.quizCourse.id}/results/`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/quiz-courses/{id}/results/csv/',
    url: (w) => `/api/quiz-courses/${w.quizCourse.id}/results/csv/`,
    expected: manage(200),
  },
  {
    // Only students of the course take quizzes; the student has already submitted (409).
    method: 'POST',
    route: '/api/quiz-submissions/create/',
    url: () => '/api/quiz-submissions/create/',
    body: (w) => ({ quiz_course: w.quizCourse.id }),
    expected: status(409, 201, 403, 403),
  },
  {
    method: 'POST',
    route: '/api/Submission/SubmitQuiz/',
    url: () => '/api/Submission/SubmitQuiz/',
    body: (w) => ({ quiz_course: w.quizCourse.id, answers: answersFor(w.questions, RIGHT) }),
    expected: status(409, 201, 403, 403),
  },
  {
    method: 'GET',
    route: '/api/quiz-submissions/',
    url: () => '/api/quiz-submissions/',
    expected: anyone(200),
  },
  {
    method: 'GET',
    route: '/api/quiz-submissions/{id}',
    url: (w) => `/api/quiz-submissions/${w.submission.id}`,
    expected: own,
  },
  { method: 'GET', route: '/api/QuizSubmission/', url: () => '/api/QuizSubmission/', expected: anyone(200) },
  {
    method: 'GET',
    route: '/api/QuizSubmission/by-course/course/{course_id}/',
    url: (w) => `/api/QuizSubmission/by-course/course/${w.course.id}/`,
    expected: read,
  },
  {
    method: 'GET',
    route: '/api/QuizSubmission/by-course/course/{course_id}/user/{user_id}/',
    url: (w) => `/api/QuizSubmission/by-course/course/${w.course.id}/user/${w.users.student.id}/`,
    expected: own,
  },
  {
    method: 'GET',
    route: '/api/QuizSubmission/{id}/',
    url: (w) => `/api/QuizSubmission/${w.submission.id}/`,
    expected: own,
  },
];

const OWN_PREFIXES = [
  '/api/Quiz/',
  '/api/quizzes/',
  '/api/quiz-courses/',
  '/api/quiz-submissions/',
  '/api/QuizSubmission/',
];
const OWN_PATHS = ['/api/Submission/SubmitQuiz/'];

describeMatrix<World, Caller>({
  title: 'quizzes: authorization matrix',
  callers: CALLERS,
  world: createQuizWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => OWN_PREFIXES.some((p) => path.startsWith(p)) || OWN_PATHS.includes(path),
});
