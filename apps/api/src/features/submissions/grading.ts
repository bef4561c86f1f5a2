import { GRADING_QUEUE, type GradingJobData } from '@kadai/grader/queue';
import { currentTraceCarrier } from '@kadai/grader/tracing';
import type { AppContext } from '../../lib/context.ts';
import { markScheduled } from './submissions.repo.ts';

/**
 * Queues submissions for grading: the rows become Scheduled (committed) first, then one job each is
 * sent. A grader claims a submission only while it is Scheduled or Executing, so a job for a canceled
 * one does nothing, and a re-grade of a running one gives the new attempt the only valid token.
 * Returns the ids that were queued.
 */
export async function enqueueGrading(ctx: AppContext, submissionIds: number[]): Promise<number[]> {
  return sendGradingJobs(ctx, await markScheduled(ctx.db, submissionIds));
}

/**
 * One job for each submission already marked Scheduled and committed (`markScheduled`, on its own or
 * in a caller's transaction). Returns the ids.
 */
export async function sendGradingJobs(ctx: AppContext, submissionIds: number[]): Promise<number[]> {
  // The grader continues the caller's trace (a submit, a re-grade), when there is one.
  const trace = currentTraceCarrier();
  for (const submissionId of submissionIds) {
    const data: GradingJobData = trace ? { submissionId, trace } : { submissionId };
    try {
      await ctx.jobs.send(GRADING_QUEUE, data, {
        expireInSeconds: ctx.config.GRADING_TIMEOUT,
        retryLimit: 3,
        retryDelay: 5,
      });
    } catch (error) {
      // The submission is saved and Scheduled; a grader's sweep re-sends jobs for Scheduled rows
      // that wait too long, so a queue hiccup delays grading but never loses it.
      ctx.log.warn({ err: error, submissionId }, 'could not queue grading; a grader sweep will');
    }
  }
  return submissionIds;
}
