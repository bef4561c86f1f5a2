import type { EvaluationStatus, SubmissionStatus } from '@kadai/contracts';

/** Every label of spec §4: a submission's status or one test's verdict. */
export type StatusLabel = SubmissionStatus | EvaluationStatus;

export type StatusTone = 'success' | 'failure' | 'waiting' | 'running' | 'problem' | 'neutral';

/**
 * How each status looks: the Mantine colour of its badge (light variant; the theme darkens the text of
 * these colours so it passes 4.5:1 in both schemes) and the icon that says the same thing without colour.
 * Completed is a state, not a result: neutral here, and coloured by the score (full, partial, none)
 * where the badge knows it (`StatusBadge`'s `score` and `max`).
 */
export const STATUS_STYLE: Record<StatusLabel, { color: string; tone: StatusTone }> = {
  Completed: { color: 'gray', tone: 'neutral' },
  Correct: { color: 'green', tone: 'success' },
  Wrong: { color: 'red', tone: 'failure' },
  Pending: { color: 'gray', tone: 'waiting' },
  Scheduled: { color: 'violet', tone: 'waiting' },
  Executing: { color: 'blue', tone: 'running' },
  InvalidFormat: { color: 'orange', tone: 'problem' },
  InternalError: { color: 'pink', tone: 'problem' },
  Canceled: { color: 'gray', tone: 'neutral' },
};

/** Statuses after which nothing changes by itself: polling stops. */
const SETTLED: ReadonlySet<SubmissionStatus> = new Set([
  'Completed',
  'Canceled',
  'InternalError',
  'InvalidFormat',
]);

/** Still on its way through the grader (waiting, queued or running). */
export function isInProgress(status: SubmissionStatus): boolean {
  return !SETTLED.has(status);
}

/** How often a page asks again while a submission it shows is in progress. */
export const POLL_INTERVAL_MS = 1500;

/** The refetch interval for data holding these statuses: poll while any is in progress, else stop. */
export function pollInterval(statuses: readonly SubmissionStatus[] | undefined): number | false {
  return statuses?.some(isInProgress) ? POLL_INTERVAL_MS : false;
}

/** Editors may cancel a submission only while it waits (not once a grader runs it). */
export function isCancelable(status: SubmissionStatus): boolean {
  return status === 'Scheduled' || status === 'Pending';
}
