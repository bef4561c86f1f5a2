import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CommentCreate,
  ReviewComment,
  ReviewSave,
  RubricSave,
  SavedCommentSave,
} from '@kadai/contracts';
import { gradebookKeys } from '../assessment/gradebook.api.ts';
import {
  answerRegradeRequest,
  createComment,
  createSavedComment,
  deleteComment,
  deleteSavedComment,
  editComment,
  getReview,
  getReviewQueue,
  getRubric,
  listRegradeRequests,
  listReviewAudit,
  listSavedComments,
  releaseReviews,
  replyToComment,
  retractReviews,
  saveReview,
  saveRubric,
  updateSavedComment,
  type AssignmentRef,
  type QueueFilter,
  type RegradeFilter,
} from './review.api.ts';

export const reviewKeys = {
  all: ['review'] as const,
  rubric: (ref: AssignmentRef) => [...reviewKeys.all, 'rubric', ref.courseId, ref.assignmentId] as const,
  queues: (ref: AssignmentRef) => [...reviewKeys.all, 'queue', ref.courseId, ref.assignmentId] as const,
  queue: (ref: AssignmentRef, filter: QueueFilter) => [...reviewKeys.queues(ref), filter] as const,
  review: (submissionId: number) => [...reviewKeys.all, 'submission', submissionId] as const,
  audit: (submissionId: number) => [...reviewKeys.review(submissionId), 'audit'] as const,
  savedComments: (courseId: number) => [...reviewKeys.all, 'saved', courseId] as const,
  regrades: (courseId: number) => [...reviewKeys.all, 'regrades', courseId] as const,
  regradeList: (courseId: number, filter: RegradeFilter) =>
    [...reviewKeys.regrades(courseId), filter] as const,
};

export function rubricQuery(ref: AssignmentRef) {
  return queryOptions({
    queryKey: reviewKeys.rubric(ref),
    queryFn: ({ signal }) => getRubric(ref, signal),
  });
}

export function reviewQueueQuery(ref: AssignmentRef, filter: QueueFilter = {}) {
  return queryOptions({
    queryKey: reviewKeys.queue(ref, filter),
    queryFn: ({ signal }) => getReviewQueue(ref, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function reviewQuery(submissionId: number) {
  return queryOptions({
    queryKey: reviewKeys.review(submissionId),
    queryFn: ({ signal }) => getReview(submissionId, signal),
    // A grading is read once and saved with its version: a refetch in the background would change the
    // version under an editor's unsaved ticks.
    staleTime: Infinity,
  });
}

export function reviewAuditQuery(submissionId: number) {
  return queryOptions({
    queryKey: reviewKeys.audit(submissionId),
    queryFn: ({ signal }) => listReviewAudit(submissionId, signal),
  });
}

export function savedCommentsQuery(courseId: number) {
  return queryOptions({
    queryKey: reviewKeys.savedComments(courseId),
    queryFn: ({ signal }) => listSavedComments(courseId, signal),
  });
}

export function regradeRequestsQuery(courseId: number, filter: RegradeFilter) {
  return queryOptions({
    queryKey: reviewKeys.regradeList(courseId, filter),
    queryFn: ({ signal }) => listRegradeRequests(courseId, filter, signal),
  });
}

/** A save of the rubric recomputes grades: the queue and the gradebook change with it. */
export function useSaveRubric(ref: AssignmentRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RubricSave) => saveRubric(ref, body),
    onSuccess: (rubric) => {
      queryClient.setQueryData(rubricQuery(ref).queryKey, { ...rubric, recomputed: 0 });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(ref) }),
        queryClient.invalidateQueries({ queryKey: gradebookKeys.book(ref.courseId) }),
      ]);
    },
  });
}

/** Release and retract change the queue's rows and what the gradebook counts. */
export function useReleaseMutations(ref: AssignmentRef) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: reviewKeys.queues(ref) }),
      queryClient.invalidateQueries({ queryKey: gradebookKeys.book(ref.courseId) }),
    ]);
  const release = useMutation({
    mutationFn: (scope: 'graded' | 'all') => releaseReviews(ref, scope),
    onSuccess: refresh,
  });
  const retract = useMutation({ mutationFn: () => retractReviews(ref), onSuccess: refresh });
  return { release, retract };
}

/** The saved grading replaces the cached one (its new version); the queue's row changes with it. */
export function useSaveReview(ref: AssignmentRef, submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewSave) => saveReview(submissionId, body),
    onSuccess: (review) => {
      queryClient.setQueryData(reviewQuery(submissionId).queryKey, review);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(ref) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.audit(submissionId) }),
        queryClient.invalidateQueries({ queryKey: gradebookKeys.book(ref.courseId) }),
      ]);
    },
  });
}

/**
 * Comments change only the comment list of the review: it is patched in the cache rather than read
 * again, so a refetch never brings a newer version under unsaved ticks.
 */
export function useCommentMutations(submissionId: number, courseId: number) {
  const queryClient = useQueryClient();
  const key = reviewQuery(submissionId).queryKey;
  const patch = (change: (comments: ReviewComment[]) => ReviewComment[]) => {
    queryClient.setQueryData(key, (review) =>
      review ? { ...review, comments: change(review.comments) } : review,
    );
  };
  const create = useMutation({
    mutationFn: (body: CommentCreate) => createComment(submissionId, body),
    onSuccess: (comment, body) => {
      patch((comments) => [...comments, comment]);
      if (body.saved_comment_id) {
        return queryClient.invalidateQueries({ queryKey: reviewKeys.savedComments(courseId) });
      }
      return undefined;
    },
  });
  const reply = useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) => replyToComment(id, body),
    onSuccess: (comment) => patch((comments) => [...comments, comment]),
  });
  const edit = useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) => editComment(id, body),
    onSuccess: (comment) => patch((comments) => comments.map((c) => (c.id === comment.id ? comment : c))),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteComment(id),
    onSuccess: (_nothing, id) =>
      patch((comments) => comments.filter((c) => c.id !== id && c.parent_id !== id)),
  });
  return { create, reply, edit, remove };
}

export function useSavedCommentMutations(courseId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: reviewKeys.savedComments(courseId) });
  const create = useMutation({
    mutationFn: (body: SavedCommentSave) => createSavedComment(courseId, body),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SavedCommentSave }) => updateSavedComment(id, body),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteSavedComment(id), onSuccess: refresh });
  return { create, update, remove };
}

/** An answer closes the request: the course's list, the queue's counts and the review's list change. */
export function useAnswerRegrade(courseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: number; answer: string }) => answerRegradeRequest(id, answer),
    onSuccess: (request) => {
      queryClient.setQueryData(reviewQuery(request.submission_id).queryKey, (review) =>
        review
          ? {
              ...review,
              regrade_requests: review.regrade_requests.map((r) => (r.id === request.id ? request : r)),
            }
          : review,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.regrades(courseId) }),
        queryClient.invalidateQueries({
          queryKey: reviewKeys.queues({ courseId, assignmentId: request.assignment_id }),
        }),
      ]);
    },
  });
}
