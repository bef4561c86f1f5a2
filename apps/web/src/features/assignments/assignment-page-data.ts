import type { QueryClient } from '@tanstack/react-query';
import { useSession } from '../auth/session.ts';
import { leaderboardQuery, myAssignmentSubmissionsQuery } from '../submissions/submissions.queries.ts';
import { assignmentQuery, parseId, testCasesQuery, totalScoreQuery } from './assignments.queries.ts';

/**
 * What the assignment page asks for, started when the page is opened from its address, beside the
 * page's code (app/page-data.ts): the assignment in its course, and the four calls its parts make as
 * soon as it is drawn — the visible tests, the reader's own submissions, the total score and the
 * ranking. Those four used to start only once the assignment had arrived and the page had been drawn:
 * a second round trip in a row, and a second render when they came back. The same queries the page
 * then reads; none depends on the assignment's answer.
 */
export function prefetchAssignmentPage(
  queryClient: QueryClient,
  params: Readonly<Record<string, string>>,
  courseId: number,
): void {
  const assignmentId = parseId(params.assignment_id);
  if (assignmentId === null) return;
  void queryClient.prefetchQuery(assignmentQuery(assignmentId, courseId));
  void queryClient.prefetchQuery(testCasesQuery(assignmentId, courseId));
  void queryClient.prefetchQuery(totalScoreQuery(assignmentId, courseId));
  void queryClient.prefetchQuery(leaderboardQuery(assignmentId, courseId));
  const { userId } = useSession.getState();
  if (userId !== null) {
    void queryClient.prefetchQuery(myAssignmentSubmissionsQuery(courseId, userId, assignmentId));
  }
}
