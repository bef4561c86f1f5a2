import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assignmentQuery,
  testCasesQuery,
  totalScoreQuery,
} from '../features/assignments/assignments.queries.ts';
import { SESSION_DEFAULTS, useSession } from '../features/auth/session.ts';
import { gradebookQuery } from '../features/assessment/gradebook.api.ts';
import { courseQuery } from '../features/courses/courses.queries.ts';
import { quizInCourseQuery } from '../features/quizzes/quizzes.queries.ts';
import {
  leaderboardQuery,
  myAssignmentSubmissionsQuery,
} from '../features/submissions/submissions.queries.ts';
import { json, stubFetch } from '../test/fetch.ts';
import { signInAsStudent } from '../test/session.ts';
import { settleLazyLoads } from '../ui/lazyComponent.ts';
import { prefetchOpenedPage } from './page-data.ts';
import { createQueryClient } from './query-client.ts';

function paths(requests: { url: string }[]): string[] {
  return requests.map(({ url }) => {
    const parsed = new URL(url, 'http://localhost');
    return parsed.pathname + parsed.search;
  });
}

async function settled(queryClient: ReturnType<typeof createQueryClient>) {
  await vi.waitFor(async () => {
    await settleLazyLoads();
    expect(queryClient.isFetching()).toBe(0);
  });
}

describe("the opened page's first API calls, started beside the app's code", () => {
  beforeEach(() => signInAsStudent());
  afterEach(() => {
    vi.unstubAllGlobals();
    useSession.setState(SESSION_DEFAULTS);
  });

  it('ask for the course and all of an assignment page’s calls at once, into the queries the page reads', async () => {
    const { requests } = stubFetch(() => json(404, { detail: 'Not found.' }));
    const queryClient = createQueryClient();
    prefetchOpenedPage(queryClient, '/course/3/assignment/7', true);
    await settled(queryClient);
    const userId = useSession.getState().userId!;
    expect(paths(requests).sort()).toEqual(
      [
        '/api/Course/3/',
        '/api/Assignment/7/CourseSpecificDetail/?course_id=3',
        '/api/Assignment/7/3/TestCase/',
        '/api/Assignment/7/total_score/?course_id=3',
        '/api/Leaderboard/7/3',
        `/api/Submission/by-course/course/3/user/${userId}/?assignment_id=7&limit=10&offset=0&ordering=-created_at`,
      ].sort(),
    );
    for (const query of [
      courseQuery(3),
      assignmentQuery(7, 3),
      testCasesQuery(7, 3),
      totalScoreQuery(7, 3),
      leaderboardQuery(7, 3),
      myAssignmentSubmissionsQuery(3, userId, 7),
    ]) {
      expect(queryClient.getQueryState(query.queryKey)?.status).toBe('error');
    }
  });

  it('ask for the quiz in its course on a quiz page', async () => {
    stubFetch(() => json(404, { detail: 'Not found.' }));
    const queryClient = createQueryClient();
    prefetchOpenedPage(queryClient, '/course/3/quizzes/5/quiz-courses/9', true);
    await settled(queryClient);
    expect(queryClient.getQueryState(quizInCourseQuery(5, 3).queryKey)).toBeDefined();
  });

  it('ask for the gradebook for an editor of the course, not for a student', async () => {
    const { requests } = stubFetch(() => json(404, { detail: 'Not found.' }));
    const queryClient = createQueryClient();
    prefetchOpenedPage(queryClient, '/course/3/gradebook', true);
    await settled(queryClient);
    expect(paths(requests)).toEqual(['/api/Course/3/']);
    useSession.setState({ editorCourses: [3] });
    prefetchOpenedPage(queryClient, '/course/3/gradebook', true);
    await settled(queryClient);
    expect(paths(requests)).toContain('/api/Course/3/gradebook/');
    expect(queryClient.getQueryState(gradebookQuery(3).queryKey)?.status).toBe('error');
  });

  it('ask for the course alone on the other pages of a course', async () => {
    const { requests } = stubFetch(() => json(404, { detail: 'Not found.' }));
    const queryClient = createQueryClient();
    prefetchOpenedPage(queryClient, '/course/3/forum', true);
    await settled(queryClient);
    expect(paths(requests)).toEqual(['/api/Course/3/']);
  });

  it('ask for nothing without a session, outside a course, or for an address that is no course', async () => {
    const { requests } = stubFetch(() => json(404, { detail: 'Not found.' }));
    const queryClient = createQueryClient();
    prefetchOpenedPage(queryClient, '/course/3/assignment/7', false);
    prefetchOpenedPage(queryClient, '/course', true);
    prefetchOpenedPage(queryClient, '/login', true);
    prefetchOpenedPage(queryClient, '/course/abc/assignment/7', true);
    prefetchOpenedPage(queryClient, '/course/3/assignment/x', true);
    await settled(queryClient);
    expect(paths(requests)).toEqual(['/api/Course/3/']);
  });
});
