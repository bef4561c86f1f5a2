import type { AssignmentCourseInput } from '@kadai/contracts';
import { json, type RecordedRequest, type Responder } from '../../test/fetch.ts';
import { savedTestCase } from '../../test/test-cases.ts';

/* A small stand-in for the API of one course, for the tests of the new-assignment dialog. */

export const COURSE_ID = 1;
export const NEW_ID = 5;
const NOW = '2026-05-01T00:00:00.000Z';

type Body = Record<string, unknown>;

function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const pathOf = (request: RecordedRequest) => new URL(request.url, 'http://test').pathname;

function isCourseInput(value: unknown): value is AssignmentCourseInput {
  return isBody(value) && typeof value.course_id === 'number';
}

/**
 * Answers as the API does for assignment 5 in course 1: POST creates it, PATCH changes it, and its
 * detail, test cases and attachments read back what was written. `requests` lists every call.
 */
export function fakeAssignmentServer() {
  const requests: RecordedRequest[] = [];
  let assignment: Body | null = null;
  const tests: Body[] = [];
  let refusal: Body | null = null;

  const courseOf = (body: Body) => {
    const input = Array.isArray(body.courses) ? body.courses.find(isCourseInput) : undefined;
    return {
      course_id: COURSE_ID,
      course_title: 'Python',
      opens_at: input?.opens_at ?? NOW,
      due_at: input?.due_at ?? '2026-05-08T14:59:00.000Z',
      late_until: input?.late_until ?? null,
      leaderboard_enabled: input?.leaderboard_enabled ?? true,
      extended: false,
    };
  };
  const write = (body: Body) => {
    const { courses, ...fields } = body;
    assignment = {
      view: 'editor',
      id: NEW_ID,
      created_by: 2,
      created_at: NOW,
      updated_at: NOW,
      total_points: 0,
      test_case_count: tests.length,
      ...(assignment ?? {}),
      ...fields,
      courses: courses === undefined && assignment ? assignment.courses : [courseOf(body)],
    };
    return assignment;
  };

  const responder: Responder = (request) => {
    requests.push(request);
    const path = pathOf(request);
    const body = isBody(request.body) ? request.body : {};
    if (path === '/api/Assignment/' && request.method === 'POST') {
      if (refusal) {
        const answer = json(400, { detail: 'Invalid input.', code: 'invalid', ...refusal });
        refusal = null;
        return answer;
      }
      return json(201, write(body));
    }
    if (path === `/api/Assignment/${NEW_ID}/` && request.method === 'PATCH') return json(200, write(body));
    if (path === `/api/Assignment/${NEW_ID}/CourseSpecificDetail/` && assignment) {
      const courses = Array.isArray(assignment.courses) ? assignment.courses : [];
      return json(200, {
        assignment,
        course: courses[0],
        accepts_submissions: true,
        is_late_period: false,
        files: [],
        can_edit: true,
      });
    }
    const testCases = `/api/Assignment/${NEW_ID}/${COURSE_ID}/TestCase/`;
    if (path === testCases && request.method === 'POST') {
      const saved = savedTestCase({
        id: 100 + tests.length,
        assignment_id: NEW_ID,
        position: tests.length,
        created_at: NOW,
        updated_at: NOW,
        ...body,
      });
      tests.push(saved);
      return json(201, saved);
    }
    if (path === testCases) return json(200, { count: tests.length, results: tests });
    if (path === '/api/Assignment/CourseSpecific/') return json(200, { count: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };

  return {
    responder,
    requests,
    /** The calls that wrote the assignment itself, in order. */
    writes: () =>
      requests.filter((request) => {
        const path = pathOf(request);
        return (
          (request.method === 'POST' && path === '/api/Assignment/') ||
          (request.method === 'PATCH' && path === `/api/Assignment/${NEW_ID}/`)
        );
      }),
    /** Changes the stored assignment behind the page's back, as a reference run saving its code does. */
    changeStored: (fields: Body) => {
      if (assignment) assignment = { ...assignment, ...fields };
    },
    /** The next create is refused with this 400 body (field messages), once. */
    refuseNextCreate: (errorBody: Body) => {
      refusal = errorBody;
    },
  };
}
