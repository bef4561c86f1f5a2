import type { AssessmentTable, Histogram, StudentAnalysis } from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';

/** Data and a fake server for the assessment tests: course 1, the signed-in student is user 4. */
const DAY = 86_400_000;
const NOW = Date.parse('2026-05-01T00:00:00Z');
const iso = (offset: number) => new Date(NOW + offset).toISOString();

export function course(role: 'student' | 'editor' | 'staff', hasAssessment = true) {
  return {
    id: 1,
    title: 'Python',
    description: '',
    has_videos: false,
    has_assessment: hasAssessment,
    time_zone: 'Asia/Tokyo',
    created_at: iso(-DAY),
    updated_at: iso(-DAY),
    my_role: role,
    editor_count: 1,
    student_count: 3,
  };
}

const user = (id: number, first_name: string, last_name: string, email: string) => ({
  id,
  first_name,
  last_name,
  email,
});
export const TARO = user(4, 'Taro', 'Yamada', 'taro@example.com');
export const HANAKO = user(5, 'Hanako', 'Sato', 'hanako@example.com');
export const ALICE = user(6, 'Alice', 'Brown', '=cmd@example.com');

const score = (earned: number, possible: number) => ({
  earned,
  possible,
  ratio: possible > 0 ? earned / possible : null,
});

export const TABLE: AssessmentTable = {
  course: 1,
  skills: [
    { name: 'Loops', skill_type: 'Practice' },
    { name: 'Types', skill_type: 'Knowledge' },
  ],
  assignments: [
    { id: 10, title: 'Week 1', due_at: iso(-7 * DAY), max_score: 10 },
    { id: 11, title: 'Week 2', due_at: iso(-DAY), max_score: 10 },
  ],
  quizzes: [{ id: 20, title: 'Quiz 1', due_at: iso(-3 * DAY), max_score: 5 }],
  students: [
    {
      user: TARO,
      total: score(18, 25),
      skills: [score(8, 10), score(3, 5)],
      assignments: [9, 6],
      quizzes: [3],
    },
    {
      user: HANAKO,
      total: score(23, 25),
      skills: [score(10, 10), score(4, 5)],
      assignments: [10, 9],
      quizzes: [4],
    },
    {
      user: ALICE,
      total: score(5, 25),
      skills: [score(0, 0), score(1, 5)],
      assignments: [5, null],
      quizzes: [null],
    },
  ],
};

export const ANALYSIS: StudentAnalysis = {
  course: 1,
  user: TARO,
  skill_types: ['Knowledge', 'Practice'],
  total: score(18, 25),
  skills: [
    { name: 'Loops', skill_type: 'Practice', score: score(8, 10) },
    { name: 'Types', skill_type: 'Knowledge', score: score(3, 5) },
  ],
  assignments: [
    { id: 10, title: 'Week 1', due_at: iso(-7 * DAY), max_score: 10, score: 9 },
    { id: 11, title: 'Week 2', due_at: iso(-DAY), max_score: 10, score: null },
  ],
  quizzes: [{ id: 20, title: 'Quiz 1', due_at: iso(-3 * DAY), max_score: 5, score: 3 }],
};

export const HISTOGRAM: Histogram = {
  bins: Array.from({ length: 10 }, (_, index) => ({
    from: index / 10,
    to: (index + 1) / 10,
    count: [0, 0, 1, 0, 2, 3, 4, 5, 2, 1][index] ?? 0,
  })),
  mine: 7,
  my_ratio: 0.72,
  students: 18,
  mean: 0.64,
};

const emptyPage = { count: 0, limit: 100, offset: 0, results: [] };

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/** The config, the course, existence, the table and the student's pages; `extra` answers first. */
export function assessmentServer(
  role: 'student' | 'editor' | 'staff',
  { exists = true, hasAssessment = true }: { exists?: boolean; hasAssessment?: boolean } = {},
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
    if (path === '/api/Course/1/') return json(200, course(role, hasAssessment));
    if (path === '/api/assessment/Existence/Course/1') return json(200, { data: exists });
    if (path === '/api/assessment/1')
      return role === 'student' ? json(403, { detail: 'Not allowed.', code: 'forbidden' }) : json(200, TABLE);
    if (path === '/api/assessment/1/4') return json(200, ANALYSIS);
    if (path.startsWith('/api/assessment/histogram/')) return json(200, HISTOGRAM);
    if (path === '/api/assessment/Feedback/' || path === '/api/assessment/Workshop/')
      return json(200, emptyPage);
    if (path === '/api/assessment/Skill/') return json(200, { results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
