import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { listCourseWork, loadItemScores } from '../assessment/gradebook.service.ts';
import { AGS_SCOPE } from './claims.ts';
import { columnOf, parseItemRef } from './items.ts';
import {
  findLineItemWithContext,
  listLineItemIdsOfItem,
  listScoreRows,
  markChecked,
  recordLineItem,
  saveScoreRow,
} from './grades.repo.ts';
import { subsOfUsers, findContext } from './launch.repo.ts';
import { callPlatform, PlatformError, platformPages } from './platform-http.ts';
import { forgetPlatformTokens, platformToken } from './platform-token.ts';
import { findPlatformRow } from './platforms.repo.ts';

/*
 * Grade passback (AGS 2.0, docs/lti.md "Grades"). Each line item is reconciled as a whole: the scores
 * the gradebook counts now are compared with what was sent, and only the differences are posted. So a
 * job that runs twice, or again after a crash, sends nothing twice that matters, and a platform outage
 * only delays: what was not sent stays `pending`, the job throws, and pg-boss runs it again with
 * back-off (the sweep also picks pending rows up every minute).
 */

export const LTI_SCORES_QUEUE = 'lti-scores';
export const LTI_DISCOVER_QUEUE = 'lti-line-items';
const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINE_ITEMS_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';
/** Attempts of one score through pg-boss retries before it is marked failed. */
export const MAX_SCORE_ATTEMPTS = 8;

/** Queues a reconciliation of the line item (once while one waits). */
export async function queueLineItem(ctx: AppContext, lineItemId: number, force = false): Promise<void> {
  await ctx.jobs.send(
    LTI_SCORES_QUEUE,
    { lineItemId, force },
    {
      singletonKey: `${lineItemId}:${force}`,
      retryLimit: MAX_SCORE_ATTEMPTS,
      retryDelay: 5,
      retryBackoff: true,
    },
  );
}

/**
 * Called where a counted score can change without new grading (a student picks another final
 * submission): the line items of that assignment are reconciled soon. Never fails the caller.
 */
export async function scoresMayHaveChanged(
  ctx: AppContext,
  kind: 'assignment' | 'quiz',
  itemId: number,
): Promise<void> {
  try {
    for (const id of await listLineItemIdsOfItem(ctx.db, kind, itemId)) await queueLineItem(ctx, id);
  } catch (error) {
    // The minute sweep does not see a change of final submission; the editor's "send again" does.
    ctx.log.warn({ err: error, kind, itemId }, 'lti: could not queue grade passback');
  }
}

export type SyncOutcome = { sent: number; failed: number; pending: number; unchanged: number };

/** Reconciles one line item: posts each student's counted score that the platform does not have yet. */
export async function syncLineItem(
  ctx: AppContext,
  lineItemId: number,
  options: { force?: boolean } = {},
): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { sent: 0, failed: 0, pending: 0, unchanged: 0 };
  const found = await findLineItemWithContext(ctx.db, lineItemId);
  if (!found?.context.courseId || !found.platform.enabled) return outcome;
  const { item, platform } = found;
  const courseId = found.context.courseId;
  const checkedAt = new Date();
  const [scores, previous, work] = await Promise.all([
    loadItemScores(ctx.db, courseId, item.kind, item.itemId),
    listScoreRows(ctx.db, item.id),
    listCourseWork(ctx.db, courseId),
  ]);
  const column = columnOf(work, { kind: item.kind, id: item.itemId });
  const subs = await subsOfUsers(ctx.db, platform.id, [...scores.keys()]);
  const before = new Map(previous.map((r) => [r.userId, r]));
  let transient: PlatformError | null = null;
  for (const [userId, score] of scores) {
    const sub = subs.get(userId);
    if (!sub) continue;
    const last = before.get(userId);
    // Sent, or refused for good (a failed row is tried again when the score changes or on "send again").
    const isSettled = last?.score === score && last.status !== 'pending';
    if (isSettled && !options.force) {
      outcome.unchanged++;
      continue;
    }
    const attempts = (last?.score === score && last.status !== 'sent' ? last.attempts : 0) + 1;
    try {
      await postScore(ctx, platform, item.url, {
        userId: sub,
        scoreGiven: score,
        scoreMaximum: column?.maxScore || item.scoreMaximum || Math.max(score, 1),
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        timestamp: new Date().toISOString(),
      });
      await saveScoreRow(ctx.db, {
        lineItemId: item.id,
        userId,
        score,
        status: 'sent',
        attempts,
        lastError: null,
        sentAt: new Date(),
      });
      outcome.sent++;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const isFinal = error.isPermanent || attempts >= MAX_SCORE_ATTEMPTS;
      await saveScoreRow(ctx.db, {
        lineItemId: item.id,
        userId,
        score,
        status: isFinal ? 'failed' : 'pending',
        attempts,
        lastError: error.message.slice(0, 500),
      });
      if (isFinal) outcome.failed++;
      else {
        outcome.pending++;
        transient = error;
      }
    }
  }
  await markChecked(ctx.db, item.id, checkedAt);
  // pg-boss runs the job again with back-off; the rows already sent are skipped then.
  if (transient) throw transient;
  return outcome;
}

async function postScore(
  ctx: AppContext,
  platform: Parameters<typeof platformToken>[1],
  lineItemUrl: string,
  score: object,
) {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/scores`;
  const send = async () =>
    callPlatform(url.href, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await platformToken(ctx, platform, [AGS_SCOPE.score])}`,
        'content-type': SCORE_MEDIA_TYPE,
      },
      body: JSON.stringify(score),
    });
  try {
    await send();
  } catch (error) {
    // A cached token the platform no longer takes (revoked, or restarted): one new token, one more try.
    if (!(error instanceof PlatformError) || error.status !== 401) throw error;
    forgetPlatformTokens(ctx, platform.id);
    await send();
  }
}

const LineItem = z.object({
  id: z.string().max(2000),
  resourceId: z.string().max(255).optional(),
  label: z.string().max(500).optional(),
  scoreMaximum: z.number().optional(),
});

/**
 * Finds the line items the platform made from Kadai's deep-linking answers (their `resourceId` is
 * `assignment:12` or `quiz:7`), so scores flow before anybody launches them.
 */
export async function discoverLineItems(ctx: AppContext, contextRowId: number): Promise<number> {
  const context = await findContext(ctx.db, contextRowId);
  const platform = context && (await findPlatformRow(ctx.db, context.platformId));
  if (!context?.lineItemsUrl || !context.courseId || !platform?.enabled) return 0;
  if (!context.agsScopes.some((s) => s === AGS_SCOPE.lineItem || s === AGS_SCOPE.lineItemReadOnly)) return 0;
  const scope = context.agsScopes.includes(AGS_SCOPE.lineItemReadOnly)
    ? AGS_SCOPE.lineItemReadOnly
    : AGS_SCOPE.lineItem;
  const work = await listCourseWork(ctx.db, context.courseId);
  let found = 0;
  const headers = async () => ({
    authorization: `Bearer ${await platformToken(ctx, platform, [scope])}`,
    accept: LINE_ITEMS_MEDIA_TYPE,
  });
  for await (const page of platformPages(context.lineItemsUrl, headers, 20)) {
    const items = z.array(LineItem).safeParse(page);
    if (!items.success)
      throw new PlatformError('The line items container is not a list of line items.', null);
    for (const lineItem of items.data) {
      const item = parseItemRef(lineItem.resourceId);
      if (!item || !columnOf(work, item)) continue;
      await recordLineItem(ctx.db, {
        contextRowId: context.id,
        kind: item.kind,
        itemId: item.id,
        url: lineItem.id,
        label: lineItem.label ?? '',
        scoreMaximum: lineItem.scoreMaximum ?? null,
      });
      found++;
    }
  }
  return found;
}
