import type { ReviewQueueRow } from '@kadai/contracts';

/** The rows of the queue that have a submission to grade, in the queue's order. */
export function gradable(rows: readonly ReviewQueueRow[]): (ReviewQueueRow & { submission_id: number })[] {
  return rows.filter((row): row is ReviewQueueRow & { submission_id: number } => row.submission_id !== null);
}

/** The submission before or after this one in the queue; null at either end. */
export function neighbour(
  rows: readonly ReviewQueueRow[],
  submissionId: number,
  step: 1 | -1,
): number | null {
  const list = gradable(rows);
  const index = list.findIndex((row) => row.submission_id === submissionId);
  if (index === -1) return list[0]?.submission_id ?? null;
  return list[index + step]?.submission_id ?? null;
}

/**
 * The next submission not graded yet, after this one and then from the top; null when every other is
 * graded. Without a current one, the first ungraded.
 */
export function nextUngraded(rows: readonly ReviewQueueRow[], submissionId: number | null): number | null {
  const list = gradable(rows);
  const index = submissionId === null ? -1 : list.findIndex((row) => row.submission_id === submissionId);
  const ordered = [...list.slice(index + 1), ...list.slice(0, Math.max(index, 0))];
  return (
    ordered.find((row) => row.status !== 'graded' && row.submission_id !== submissionId)?.submission_id ??
    null
  );
}
