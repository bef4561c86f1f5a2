import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  getLeaderboard,
  getLeaderboardProfile,
  getSubmission,
  listCourseUserSubmissions,
  listSubmissions,
  type CourseUserSubmissionParams,
  type SubmissionListParams,
} from './submissions.api.ts';
import { pollInterval } from './status.ts';

export const submissionKeys = {
  all: ['submissions'] as const,
  lists: () => [...submissionKeys.all, 'list'] as const,
  list: (params: SubmissionListParams) => [...submissionKeys.lists(), params] as const,
  mine: (courseId: number, userId: number, params: CourseUserSubmissionParams) =>
    [...submissionKeys.lists(), 'mine', courseId, userId, params] as const,
  detail: (id: number) => [...submissionKeys.all, 'detail', id] as const,
  leaderboard: (assignmentId: number, courseId: number) =>
    [...submissionKeys.all, 'leaderboard', assignmentId, courseId] as const,
  leaderboardProfile: () => [...submissionKeys.all, 'leaderboardProfile'] as const,
};

/** A page of submissions; asks again every 1.5 s while one on it is waiting or running. */
export function submissionListQuery(params: SubmissionListParams) {
  return queryOptions({
    queryKey: submissionKeys.list(params),
    queryFn: ({ signal }) => listSubmissions(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollInterval(query.state.data?.results.map((s) => s.status)),
  });
}

/** The caller's own submissions in a course, polled like the list above. */
export function mySubmissionsQuery(courseId: number, userId: number, params: CourseUserSubmissionParams) {
  return queryOptions({
    queryKey: submissionKeys.mine(courseId, userId, params),
    queryFn: ({ signal }) => listCourseUserSubmissions(courseId, userId, params, signal),
    refetchInterval: (query) => pollInterval(query.state.data?.results.map((s) => s.status)),
  });
}

/**
 * The caller's latest submissions to one assignment (newest first): the assignment page's list and its
 * latest result share this query, so they agree and ask once.
 */
export function myAssignmentSubmissionsQuery(courseId: number, userId: number, assignmentId: number) {
  return mySubmissionsQuery(courseId, userId, {
    assignment_id: assignmentId,
    limit: 10,
    offset: 0,
    ordering: '-created_at',
  });
}

/**
 * A student's final submission to one assignment, if they marked one (a list of at most one): it is
 * the one that counts, whatever they submit after it. Under `lists()`, so a submit refreshes it.
 */
export function finalSubmissionQuery(courseId: number, userId: number, assignmentId: number) {
  return mySubmissionsQuery(courseId, userId, {
    assignment_id: assignmentId,
    is_final: true,
    limit: 1,
    offset: 0,
    ordering: '-created_at',
  });
}

/** One submission; asks again every 1.5 s until it is graded, canceled or refused. */
export function submissionQuery(id: number) {
  return queryOptions({
    queryKey: submissionKeys.detail(id),
    queryFn: ({ signal }) => getSubmission(id, signal),
    refetchInterval: (query) => pollInterval(query.state.data ? [query.state.data.status] : undefined),
  });
}

export function leaderboardQuery(assignmentId: number, courseId: number) {
  return queryOptions({
    queryKey: submissionKeys.leaderboard(assignmentId, courseId),
    queryFn: ({ signal }) => getLeaderboard(assignmentId, courseId, signal),
  });
}

export function leaderboardProfileQuery() {
  return queryOptions({
    queryKey: submissionKeys.leaderboardProfile(),
    queryFn: ({ signal }) => getLeaderboardProfile(signal),
    staleTime: 5 * 60_000,
  });
}

/** Breadcrumb title of a submission: "#12 · Sum of two numbers". */
export async function resolveSubmissionTitle(value: string, _params: unknown, queryClient: QueryClient) {
  const submission = await queryClient.ensureQueryData(submissionQuery(Number(value)));
  return `#${submission.id} · ${submission.assignment_title}`;
}
