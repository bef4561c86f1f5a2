import type { TraceCarrier } from './tracing.ts';

/** The pg-boss queue of grading work; the API sends to it, graders work it. */
export const GRADING_QUEUE = 'grading';

/** One job grades one submission, whatever its current test cases are when the job runs. */
export interface GradingJobData {
  submissionId: number;
  /** The submitting request's trace context, so the grader continues its trace (docs/operations.md). */
  trace?: TraceCarrier;
}
