import type { QuizContent, QuizInCourse, QuizSubmissionDetail } from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';

/** Data and a fake server for the quiz page tests: course 1, quiz 3 given as quiz course 7. */
/** A time `offsetMs` from now: now when called, since a worker's files share this module. */
export const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const DAY = 86_400_000;

export function course(role: 'student' | 'editor') {
  return {
    id: 1,
    title: 'Python',
    description: '',
    has_videos: false,
    has_assessment: false,
    time_zone: 'Asia/Tokyo',
    created_at: iso(-DAY),
    updated_at: iso(-DAY),
    my_role: role,
    editor_count: 1,
    student_count: 3,
  };
}

export const QUIZ_COURSE = {
  id: 7,
  quiz_id: 3,
  quiz_title: 'Week 1 check',
  course_id: 1,
  course_title: 'Python',
  opens_at: iso(-DAY),
  closes_at: iso(DAY),
  time_limit_minutes: null,
  scores_visible_at: iso(-DAY),
  answers_visible_at: null,
  state: 'open',
  extended: false,
} satisfies QuizInCourse['quiz_course'];

export function inCourse(overrides: Partial<QuizInCourse> = {}): QuizInCourse {
  return {
    quiz_course: QUIZ_COURSE,
    quiz_id: 3,
    title: 'Week 1 check',
    description: 'Answer **every** question.',
    question_count: 6,
    total_points: 8,
    my_submission: null,
    scores_visible: true,
    answers_visible: false,
    can_edit: false,
    submitted_students: null,
    ...overrides,
  };
}

const common = { view: 'student' as const, points: 1 };
export const QUESTIONS: QuizContent['questions'] = [
  {
    ...common,
    id: 11,
    position: 0,
    kind: 'single',
    prompt: 'What does `7 // 2` give?',
    options: [
      { id: 'a', text: '3' },
      { id: 'b', text: '3.5' },
    ],
  },
  {
    ...common,
    id: 12,
    position: 1,
    kind: 'multiple',
    points: 2,
    prompt: 'Which are mutable?',
    options: [
      { id: 'list', text: 'list' },
      { id: 'tuple', text: 'tuple' },
      { id: 'dict', text: 'dict' },
    ],
  },
  { ...common, id: 13, position: 2, kind: 'true_false', prompt: 'Lists keep order.', options: [] },
  { ...common, id: 14, position: 3, kind: 'short_text', prompt: 'Loop keyword?', options: [] },
  { ...common, id: 15, position: 4, kind: 'numeric', prompt: 'What is 2 ** 3?', options: [] },
  {
    ...common,
    id: 16,
    position: 5,
    kind: 'ordering',
    points: 2,
    prompt: 'Order the steps.',
    options: [
      { id: 'run', text: 'Run' },
      { id: 'write', text: 'Write' },
      { id: 'save', text: 'Save' },
    ],
  },
];

export const CONTENT: QuizContent = {
  quiz_course: QUIZ_COURSE,
  title: 'Week 1 check',
  description: 'Answer **every** question.',
  questions: QUESTIONS,
  my_submission: null,
};

export const SUBMISSION: QuizSubmissionDetail = {
  id: 42,
  quiz_course_id: 7,
  quiz_id: 3,
  quiz_title: 'Week 1 check',
  course_id: 1,
  user: { id: 4, email: 'student1@example.com', first_name: 'Taro', last_name: 'Yamada' },
  status: 'submitted',
  started_at: iso(-60_000),
  submitted_at: iso(0),
  deadline: QUIZ_COURSE.closes_at,
  score: 6,
  max_score: 8,
  scores_visible: true,
  answers_visible: false,
  questions: QUESTIONS,
  answers: QUESTIONS.map((question) => ({
    question_id: question.id,
    answer: null,
    is_correct: question.id !== 16,
    points: question.id === 16 ? 0 : question.points,
  })),
};

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/** The course, the config and the quiz; `extra` answers anything else (first match wins). */
export function quizServer(role: 'student' | 'editor', detail: QuizInCourse, ...extra: Route[]) {
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    for (const route of extra) {
      const response = route(request, url);
      if (response) return response;
    }
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(role));
    if (path === '/api/Quiz/3/CourseSpecificDetail/') return json(200, detail);
    if (path === '/api/Quiz/3/QuizContent/') return json(200, CONTENT);
    if (path === '/api/QuizSubmission/42/') return json(200, SUBMISSION);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
