import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { RegradeRequest, ReviewComment, StudentFeedback, type RegradeAsk } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

/** The review of a submission as its author sees it; `released` false (and empty) until an editor releases it. */
export function getFeedback(submissionId: number, signal?: AbortSignal) {
  return apiCall('getFeedback', 'GET', '/Submission/{id}/feedback/', {
    path: { id: submissionId },
    response: StudentFeedback,
    signal,
  });
}

/** `commentId`: the first comment of the thread answered. */
export function replyToComment(commentId: number, body: string) {
  return apiCall('replyToComment', 'POST', '/ReviewComment/{id}/replies/', {
    path: { id: commentId },
    body: { body },
    response: ReviewComment,
  });
}

/** One request per rubric item or comment thread: a second is refused with 409 `regrade_already_asked`. */
export function askRegrade(submissionId: number, body: RegradeAsk) {
  return apiCall('askRegrade', 'POST', '/Submission/{id}/regrade-requests/', {
    path: { id: submissionId },
    body,
    response: RegradeRequest,
  });
}

export const feedbackKeys = {
  all: ['feedback'] as const,
  submission: (submissionId: number) => [...feedbackKeys.all, submissionId] as const,
};

export function feedbackQuery(submissionId: number) {
  return queryOptions({
    queryKey: feedbackKeys.submission(submissionId),
    queryFn: ({ signal }) => getFeedback(submissionId, signal),
  });
}

/**
 * A reply and a regrade request. Both change what the feedback shows (a new reply, an item now asked
 * about), so each reads it again; a refused request too, since a 409 means a request exists the page
 * did not know of.
 */
export function useFeedbackMutations(submissionId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: feedbackKeys.submission(submissionId) });
  const reply = useMutation({
    mutationFn: ({ commentId, body }: { commentId: number; body: string }) => replyToComment(commentId, body),
    onSuccess: refresh,
  });
  const regrade = useMutation({
    mutationFn: (body: RegradeAsk) => askRegrade(submissionId, body),
    onSettled: refresh,
  });
  return { reply, regrade };
}
