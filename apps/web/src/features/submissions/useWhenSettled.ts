import { useEffect, useRef } from 'react';
import type { SubmissionStatus } from '@kadai/contracts';
import { isInProgress } from './status.ts';

/**
 * Calls `onSettled` when a submission that was in progress is seen finished (graded, canceled or
 * refused), so scores and rankings shown elsewhere on the page refresh without a reload.
 */
export function useWhenSettled(
  submissions: readonly { id: number; status: SubmissionStatus }[] | undefined,
  onSettled: () => void,
): void {
  const inProgress = useRef<Set<number>>(new Set());
  const callback = useRef(onSettled);
  useEffect(() => {
    callback.current = onSettled;
  });
  useEffect(() => {
    if (!submissions) return;
    let settled = false;
    const next = new Set<number>();
    for (const submission of submissions) {
      if (isInProgress(submission.status)) next.add(submission.id);
      else if (inProgress.current.has(submission.id)) settled = true;
    }
    inProgress.current = next;
    if (settled) callback.current();
  }, [submissions]);
}
