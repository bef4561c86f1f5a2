import { matchPath, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ROUTES, ROUTE_NAMES, type RouteName } from '../routes/route-definitions.ts';
import { routeNameOf } from './layout/useDocumentTitle.ts';
import { matchRoute, matchRouteName } from './route-match.ts';
import { appRoutes } from './router.tsx';

/** A path of the route's own pattern: every parameter 9, the splat two segments. */
const examplePath = (name: RouteName) =>
  ROUTES[name].path.replace(/:(\w+)\??/gu, '9').replace(/^\*$/u, '/x/y');

describe('the page a path opens, named before react-router has arrived', () => {
  it.each([
    ['/login', 'Login'],
    ['/course', 'Course'],
    ['/course/', 'Course'],
    ['/course/1', 'CourseHome'],
    ['/course/1/assignment', 'Assignment'],
    ['/course/1/assignment/7', 'AssignmentDetail'],
    ['/course/1/testcase/7', 'TestCase'],
    ['/course/1/youtube/abc', 'VideoDetail'],
    ['/course/1/quizzes/2/quiz-courses/3', 'QuizDetailV2'],
    ['/course/1/quizzes/2/quiz-submissions/3', 'QuizSubmissionDetail'],
    ['/course/1/assessment/42', 'AssessmentDetail'],
    ['/course/1/submission/42/compare', 'SubmissionCompare'],
    ['/profile', 'Profile'],
    ['/profile/5', 'Profile'],
    ['/pygrade', 'PyGrade'],
    ['/', 'Home'],
    ['/nothing/here', 'NotFound'],
    ['/course/1/assignment/7/extra', 'NotFound'],
    ['/LOGIN', 'Login'],
  ])('%s is %s', (path, name) => {
    expect(matchRouteName(path)).toBe(name);
  });

  it("names every route for a path of its own pattern, which react-router's matching accepts", () => {
    for (const name of ROUTE_NAMES) {
      const example = examplePath(name);
      expect(matchRouteName(example), example).toBe(name);
      expect(matchPath({ path: ROUTES[name].path, end: true }, example), example).not.toBeNull();
    }
  });

  it('gives the parameters, decoded', () => {
    expect(matchRoute('/course/1/quizzes/2/quiz-courses/3')).toEqual({
      name: 'QuizDetailV2',
      params: { course_id: '1', quiz_id: '2', quiz_course_id: '3' },
    });
    expect(matchRoute('/course/1/vimeo/a%20b')?.params).toEqual({
      course_id: '1',
      platform: 'vimeo',
      video_url: 'a b',
    });
    expect(matchRoute('/profile')).toEqual({ name: 'Profile', params: {} });
    expect(matchRoute('/course/1/vimeo/%E0%A4%A')?.params.video_url).toBe('%E0%A4%A');
  });

  it('names the route react-router renders there (useCurrentRoute: the title, the breadcrumbs, the rail)', () => {
    const paths = ROUTE_NAMES.map(examplePath);
    paths.push('/course/1', '/course/1/assignment/7/extra', '/course/1/nowhere', '/profile', '/');
    for (const path of paths) {
      const matches = matchRoutes(appRoutes, path) ?? [];
      const rendered =
        matches
          .map((match) => routeNameOf(match.route.handle))
          .filter(Boolean)
          .at(-1) ?? null;
      expect(matchRouteName(path), path).toBe(rendered);
    }
  });
});
