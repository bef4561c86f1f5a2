import { useEffect, useRef } from 'react';
import type { SubmissionStatus } from '@kadai/contracts';
import { isInProgress } from './status.ts';

/**
 * Calls `onSettled` when a submission is seen finished (graded, canceled or refused) that was not
 * finished before: one seen in progress that is now done, or one that first appears already done
 * (a fast grader can finish before the list is fetched again). The first list seen only sets the
 * baseline, so opening a page with old results does not refresh anything.
 */
export function useWhenSettled(
  submissions: readonly { id: number; status: SubmissionStatus }[] | undefined,
  onSettled: () => void,
): void {
  const known = useRef<Map<number, boolean> | null>(null);
  const callback = useRef(onSettled);
  useEffect(() => {
    callback.current = onSettled;
  });
  useEffect(() => {
    if (!submissions) return;
    const previous = known.current;
    const next = new Map<number, boolean>();
    let settled = false;
    for (const submission of submissions) {
      const inProgress = isInProgress(submission.status);
      next.set(submission.id, inProgress);
      const wasInProgress = previous?.get(submission.id);
      if (previous && !inProgress && wasInProgress !== false) settled = true;
    }
    known.current = next;
    if (settled) callback.current();
  }, [submissions]);
}
