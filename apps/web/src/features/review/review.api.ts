import {
  RegradeList,
  RegradeRequest,
  ReleaseResult,
  Review,
  ReviewAuditList,
  ReviewComment,
  ReviewQueue,
  Rubric,
  SavedComment,
  SavedCommentList,
  type CommentCreate,
  type ReviewSave,
  type ReviewStatus,
  type RubricSave,
  type SavedCommentSave,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

/** An assignment of a course: the path of its rubric and its grading queue. */
export interface AssignmentRef {
  courseId: number;
  assignmentId: number;
}

export interface QueueFilter {
  grader_id?: number;
  status?: ReviewStatus;
}

export interface RegradeFilter {
  status?: 'open' | 'answered';
  assignment_id?: number;
}

const inCourse = ({ courseId, assignmentId }: AssignmentRef) => ({
  id: courseId,
  assignment_id: assignmentId,
});

export function getRubric(ref: AssignmentRef, signal?: AbortSignal) {
  return apiCall('getRubric', 'GET', '/Course/{id}/assignments/{assignment_id}/rubric/', {
    path: inCourse(ref),
    response: Rubric,
    signal,
  });
}

/** The whole rubric; `recomputed` in the answer counts the grades whose points changed. */
export function saveRubric(ref: AssignmentRef, body: RubricSave) {
  return apiCall('saveRubric', 'PUT', '/Course/{id}/assignments/{assignment_id}/rubric/', {
    path: inCourse(ref),
    body,
    response: Rubric,
  });
}

export function getReviewQueue(ref: AssignmentRef, filter: QueueFilter, signal?: AbortSignal) {
  return apiCall('getReviewQueue', 'GET', '/Course/{id}/assignments/{assignment_id}/reviews/', {
    path: inCourse(ref),
    query: { ...filter },
    response: ReviewQueue,
    signal,
  });
}

export function releaseReviews(ref: AssignmentRef, scope: 'graded' | 'all') {
  return apiCall('releaseReviews', 'POST', '/Course/{id}/assignments/{assignment_id}/reviews/release/', {
    path: inCourse(ref),
    body: { scope },
    response: ReleaseResult,
  });
}

export function retractReviews(ref: AssignmentRef) {
  return apiCall('retractReviews', 'POST', '/Course/{id}/assignments/{assignment_id}/reviews/retract/', {
    path: inCourse(ref),
    response: ReleaseResult,
  });
}

export function getReview(submissionId: number, signal?: AbortSignal) {
  return apiCall('getReview', 'GET', '/Submission/{id}/review/', {
    path: { id: submissionId },
    response: Review,
    signal,
  });
}

/** 409 `review_conflict` when another editor saved since `body.version` was read. */
export function saveReview(submissionId: number, body: ReviewSave) {
  return apiCall('saveReview', 'PUT', '/Submission/{id}/review/', {
    path: { id: submissionId },
    body,
    response: Review,
  });
}

export function listReviewAudit(submissionId: number, signal?: AbortSignal) {
  return apiCall('listReviewAudit', 'GET', '/Submission/{id}/review/audit/', {
    path: { id: submissionId },
    response: ReviewAuditList,
    signal,
  });
}

export function createComment(submissionId: number, body: CommentCreate) {
  return apiCall('createReviewComment', 'POST', '/Submission/{id}/comments/', {
    path: { id: submissionId },
    body,
    response: ReviewComment,
  });
}

export function replyToComment(commentId: number, body: string) {
  return apiCall('replyToReviewComment', 'POST', '/ReviewComment/{id}/replies/', {
    path: { id: commentId },
    body: { body },
    response: ReviewComment,
  });
}

export function editComment(commentId: number, body: string) {
  return apiCall('editReviewComment', 'PUT', '/ReviewComment/{id}/', {
    path: { id: commentId },
    body: { body },
    response: ReviewComment,
  });
}

/** A thread's first comment takes its replies with it. */
export function deleteComment(commentId: number) {
  return apiCall('deleteReviewComment', 'DELETE', '/ReviewComment/{id}/', { path: { id: commentId } });
}

export function listSavedComments(courseId: number, signal?: AbortSignal) {
  return apiCall('listSavedComments', 'GET', '/Course/{id}/saved-comments/', {
    path: { id: courseId },
    response: SavedCommentList,
    signal,
  });
}

export function createSavedComment(courseId: number, body: SavedCommentSave) {
  return apiCall('createSavedComment', 'POST', '/Course/{id}/saved-comments/', {
    path: { id: courseId },
    body,
    response: SavedComment,
  });
}

export function updateSavedComment(id: number, body: SavedCommentSave) {
  return apiCall('updateSavedComment', 'PUT', '/SavedComment/{id}/', {
    path: { id },
    body,
    response: SavedComment,
  });
}

export function deleteSavedComment(id: number) {
  return apiCall('deleteSavedComment', 'DELETE', '/SavedComment/{id}/', { path: { id } });
}

export function listRegradeRequests(courseId: number, filter: RegradeFilter, signal?: AbortSignal) {
  return apiCall('listRegradeRequests', 'GET', '/Course/{id}/regrade-requests/', {
    path: { id: courseId },
    query: { ...filter },
    response: RegradeList,
    signal,
  });
}

export function answerRegradeRequest(id: number, answer: string) {
  return apiCall('answerRegradeRequest', 'POST', '/RegradeRequest/{id}/answer/', {
    path: { id },
    body: { answer },
    response: RegradeRequest,
  });
}
