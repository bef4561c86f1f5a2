import type { QueryClient } from '@tanstack/react-query';
import { courseQuery, parseCourseId } from '../features/courses/courses.queries.ts';
import type { RouteName } from '../routes/route-definitions.ts';
import { matchRoute } from './route-match.ts';

/** Starts the API calls a page makes first, given the path's parameters and its course. */
type PagePrefetch = (
  queryClient: QueryClient,
  params: Readonly<Record<string, string>>,
  courseId: number,
) => void;

/**
 * The pages whose first API call is worth starting before they are drawn: the ones whose largest
 * paint is that call's answer. (Not the course home: its overview is never reused from the cache, so
 * a call started early would be made twice.) Each loader imports the feature's queries, modules
 * among the page's own chunks, which boot.ts has already asked for.
 */
const PAGE_DATA: Partial<Record<RouteName, () => Promise<PagePrefetch>>> = {
  AssignmentDetail: async () =>
    (await import('../features/assignments/assignment-page-data.ts')).prefetchAssignmentPage,
  QuizDetailV2: async () => (await import('../features/quizzes/quizzes.queries.ts')).prefetchQuizPage,
  Gradebook: async () => (await import('../features/assessment/gradebook.api.ts')).prefetchGradebookPage,
};

/**
 * Starts the first API calls of the page opened at `pathname`, beside the app's code rather than once
 * it has drawn the shell: a page of a course waited for the course (CourseLayout draws its pages only
 * with it), and the page's own calls then for the page to be drawn — two round trips in a row (issue
 * 22 §2). Nothing without a session (the sign-in page is what opens). The queries are the ones the
 * layout and the page read, so they find the answers (or the calls under way) in the cache.
 */
export function prefetchOpenedPage(queryClient: QueryClient, pathname: string, signedIn: boolean): void {
  if (!signedIn) return;
  const match = matchRoute(pathname);
  const courseId = parseCourseId(match?.params.course_id);
  if (match === null || courseId === null) return;
  void queryClient.prefetchQuery(courseQuery(courseId));
  const load = PAGE_DATA[match.name];
  if (load) {
    void load().then(
      (prefetch) => prefetch(queryClient, match.params, courseId),
      // The page's own load reports a chunk that failed; the page then asks for its data itself.
      () => undefined,
    );
  }
}
