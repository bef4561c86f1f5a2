import {
  FinalSubmission,
  Leaderboard,
  LeaderboardProfile,
  PrecheckResult,
  RegradeResult,
  Submission,
  SubmissionDetail,
  SubmissionList,
  type SUBMISSION_ORDERINGS,
  type PrecheckRequest,
  type ScoreOverride,
  type SubmissionStatus,
  type SubmitRequest,
} from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

type Id = number | null | undefined;

export type SubmissionOrdering = (typeof SUBMISSION_ORDERINGS)[number];

export interface SubmissionListParams {
  limit: number;
  offset: number;
  course_id: number;
  assignment_id?: number;
  status?: SubmissionStatus;
  is_final?: boolean;
  is_late?: boolean;
  search?: string;
  ordering?: SubmissionOrdering;
}

export function listSubmissions(params: SubmissionListParams, signal?: AbortSignal) {
  return apiCall('listSubmissions', 'GET', '/Submission/', {
    query: { ...params },
    response: SubmissionList,
    signal,
  });
}

export type CourseUserSubmissionParams = Omit<SubmissionListParams, 'course_id'>;

/** One person's submissions in a course (`Submission/by-course/course/{course_id}/user/{user_id}/`). */
export function listCourseUserSubmissions(
  courseId: Id,
  userId: Id,
  params: CourseUserSubmissionParams,
  signal?: AbortSignal,
) {
  return apiCall(
    'listCourseUserSubmissions',
    'GET',
    '/Submission/by-course/course/{course_id}/user/{user_id}/',
    {
      path: { course_id: courseId, user_id: userId },
      query: { ...params },
      response: SubmissionList,
      signal,
    },
  );
}

export function getSubmission(id: Id, signal?: AbortSignal) {
  return apiCall('getSubmission', 'GET', '/Submission/{id}/', {
    path: { id },
    response: SubmissionDetail,
    signal,
  });
}

/** `idempotencyKey`: the same for a retry of the same content, so a submit that did commit is not made twice. */
export function submit(body: SubmitRequest, idempotencyKey?: string) {
  return apiCall('submit', 'POST', '/Submission/Submit/', { body, response: Submission, idempotencyKey });
}

/** Runs the visible tests on the files of a Submit body at once; nothing is stored. */
export function precheck(body: PrecheckRequest) {
  return apiCall('precheck', 'POST', '/Submission/Precheck/', { body, response: PrecheckResult });
}

export function selectFinal(assignmentId: Id, courseId: Id, submissionId: Id) {
  return apiCall(
    'selectFinal',
    'POST',
    '/Submission/SelectFinal/{assignment_id}/{course_id}/{submission_id}/',
    {
      path: { assignment_id: assignmentId, course_id: courseId, submission_id: submissionId },
      response: FinalSubmission,
    },
  );
}

export function cancelSubmission(id: Id) {
  return apiCall('cancelSubmission', 'POST', '/Submission/{id}/cancel/', {
    path: { id },
    response: Submission,
  });
}

/** Queues one submission for grading again. */
export function regradeSubmission(id: Id) {
  return apiCall('regradeSubmission', 'POST', '/Score/{submission_id}/submission_specific/', {
    path: { submission_id: id },
    response: Submission,
  });
}

/** Queues every submission of the assignment in the course for grading again. */
export function regradeAll(assignmentId: Id, courseId: Id) {
  return apiCall('regradeAll', 'POST', '/Submission/Regrade/{assignment_id}/{course_id}/', {
    path: { assignment_id: assignmentId, course_id: courseId },
    response: RegradeResult,
  });
}

export function overrideScore(body: ScoreOverride) {
  return apiCall('overrideScore', 'POST', '/Submission/Score/', { body });
}

export function downloadSubmissionsCsv(assignmentId: Id, courseId: Id) {
  return apiDownload('downloadSubmissionsCsv', '/Submission/csv/', {
    query: { assignment_id: assignmentId, course_id: courseId },
    accept: 'text/csv',
  });
}

/* ─── Leaderboard ─── */

export function getLeaderboard(assignmentId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('getLeaderboard', 'GET', '/Leaderboard/{assignment_id}/{course_id}', {
    path: { assignment_id: assignmentId, course_id: courseId },
    response: Leaderboard,
    signal,
  });
}

export function getLeaderboardProfile(signal?: AbortSignal) {
  return apiCall('getLeaderboardProfile', 'GET', '/LeaderboardProfile/', {
    response: LeaderboardProfile,
    signal,
  });
}

export function updateLeaderboardProfile(body: { nickname: string | null; opt_out: boolean }) {
  return apiCall('updateLeaderboardProfile', 'PUT', '/LeaderboardProfile/', {
    body,
    response: LeaderboardProfile,
  });
}
