import type {
  AssignmentInCourse,
  Course,
  CourseRole,
  Extension,
  ExtensionAuditEntry,
  Member,
} from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';
import { QUIZ_COURSE, inCourse } from '../quizzes/quiz-fixtures.ts';
import { courseAs } from '../../test/course.ts';

export const AT = '2026-04-01T09:00:00.000Z';
export const DUE = '2026-04-08T14:59:00.000Z';

export const course = (role: CourseRole): Course => courseAs(role);

export const TARO = { id: 4, email: 'taro@example.jp', first_name: 'Taro', last_name: 'Yamada' };
export const ANN = { id: 5, email: 'ann@example.jp', first_name: 'Ann', last_name: 'Abe' };
export const STUDENTS: Member[] = [TARO, ANN].map((user) => ({ ...user, added_at: AT }));

export const LOOPS: AssignmentInCourse = {
  id: 1,
  title: 'Loops',
  course_id: 1,
  opens_at: AT,
  due_at: DUE,
  late_until: null,
  extended: false,
  accepts_submissions: true,
  total_points: 10,
  test_case_count: 2,
  my_submission_count: 0,
  my_latest_status: null,
  my_latest_score: null,
  my_latest_max_score: null,
  my_best_score: null,
  my_final_submission_id: null,
  submitted_students: 1,
};

/** Quiz 3 in quiz-course 7, with a 30-minute limit. */
export const TIMED_QUIZ = inCourse({
  quiz_course: { ...QUIZ_COURSE, time_limit_minutes: 30 },
  submitted_students: 0,
  can_edit: true,
});

export const EXTENSION: Extension = {
  kind: 'assignment',
  item_id: 1,
  item_title: 'Loops',
  user: TARO,
  due_at: '2026-04-10T14:59:00.000Z',
  late_until: null,
  closes_at: null,
  extra_minutes: null,
  course_due_at: DUE,
  course_late_until: null,
  time_limit_minutes: null,
  reason: 'Hospital stay',
  granted_by: { id: 2, email: 'emily@example.jp', first_name: 'Emily', last_name: 'Carter' },
  granted_at: AT,
};

export function auditEntry(id: number): ExtensionAuditEntry {
  return {
    id,
    kind: 'assignment',
    item_id: 1,
    item_title: 'Loops',
    user_id: 4,
    user_email: `student${id}@example.jp`,
    action: id % 2 === 0 ? 'revoked' : 'granted',
    before: null,
    after: { due_at: EXTENSION.due_at, late_until: null, closes_at: null, extra_minutes: null },
    reason: `Reason ${id}`,
    actor_email: 'emily@example.jp',
    at: AT,
  };
}

export type Route = (request: RecordedRequest, url: URL) => Response | undefined;

/**
 * A course with one assignment, one timed quiz, two students and one extension; 25 audit entries, 20
 * a page. `extra` answers first (a gradebook, a refused grant).
 */
export function extensionServer(role: CourseRole, ...extra: Route[]) {
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
    if (path === '/api/Course/1/extensions/' && request.method === 'GET')
      return json(200, { count: 1, results: [EXTENSION] });
    if (path === '/api/Course/1/extensions/' && request.method === 'POST')
      return json(201, { count: 1, results: [EXTENSION] });
    if (path.startsWith('/api/Course/1/extensions/assignment/') && request.method === 'DELETE')
      return new Response(null, { status: 204 });
    if (path === '/api/Course/1/extensions/audit/') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const ids = Array.from({ length: 25 }, (_, i) => 25 - i).slice(offset, offset + 20);
      return json(200, { count: 25, limit: 20, offset, results: ids.map(auditEntry) });
    }
    if (path === '/api/Assignment/CourseSpecific/') return json(200, { count: 1, results: [LOOPS] });
    if (path === '/api/Quiz/CourseSpecific/') return json(200, { count: 1, results: [TIMED_QUIZ] });
    if (path === '/api/StudentList/1/') return json(200, { count: 2, results: STUDENTS });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
