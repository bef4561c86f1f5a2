import type { AppContext } from '../../lib/context.ts';
import { listStaleLineItemIds } from './grades.repo.ts';
import {
  LTI_DISCOVER_QUEUE,
  LTI_SCORES_QUEUE,
  discoverLineItems,
  queueLineItem,
  syncLineItem,
} from './grades.service.ts';
import { listSyncableContexts } from './launch.repo.ts';
import { syncRoster } from './roster.service.ts';

/*
 * LTI's background work (docs/lti.md): grade passback per line item, a sweep every minute for work
 * graded since (graders may run on other hosts, so the API does not see each result), line items found
 * in the LMS, and the nightly roster sync. Every schedule runs once per slot across all instances.
 */

export const LTI_SWEEP_QUEUE = 'lti-sweep';
export const LTI_ROSTER_QUEUE = 'lti-roster';
const SWEEP_BATCH = 500;

export async function sweepLineItems(ctx: AppContext): Promise<number> {
  const ids = await listStaleLineItemIds(ctx.db, SWEEP_BATCH);
  for (const id of ids) await queueLineItem(ctx, id);
  return ids.length;
}

export async function syncAllRosters(ctx: AppContext): Promise<void> {
  for (const context of await listSyncableContexts(ctx.db)) {
    try {
      await syncRoster(ctx, context.id);
    } catch (error) {
      // Recorded on the context (roster_error) by syncRoster; one LMS course never stops the others.
      ctx.log.warn({ err: error, context: context.id }, 'lti: nightly roster sync failed');
    }
  }
}

/** Grade passback jobs, one line item at a time. */
export async function workLtiScores(ctx: AppContext): Promise<void> {
  await ctx.jobs.work<{ lineItemId: number; force?: boolean }>(
    LTI_SCORES_QUEUE,
    async (jobs) => {
      for (const job of jobs) {
        await syncLineItem(ctx, job.data.lineItemId, { force: job.data.force ?? false });
      }
    },
    { batchSize: 1 },
  );
}

export async function startLtiJobs(ctx: AppContext): Promise<void> {
  await workLtiScores(ctx);
  await ctx.jobs.work<{ contextRowId: number }>(LTI_DISCOVER_QUEUE, async (jobs) => {
    for (const job of jobs) {
      if ((await discoverLineItems(ctx, job.data.contextRowId)) > 0) await sweepLineItems(ctx);
    }
  });
  await ctx.jobs.work(LTI_SWEEP_QUEUE, async () => {
    await sweepLineItems(ctx);
  });
  await ctx.jobs.work(LTI_ROSTER_QUEUE, async () => {
    await syncAllRosters(ctx);
  });
  await ctx.jobs.schedule(LTI_SWEEP_QUEUE, '* * * * *');
  // 18:17 UTC is 03:17 in Japan: courses are quiet, and it is away from the hour's other schedules.
  await ctx.jobs.schedule(LTI_ROSTER_QUEUE, '17 18 * * *');
}
