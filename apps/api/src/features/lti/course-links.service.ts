import type { LtiCourseLinks, LtiRosterSyncResult } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { listCourseWork } from '../assessment/gradebook.service.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { findLineItemWithContext, listLineItemsOfContexts, summarizeScores } from './grades.repo.ts';
import { LTI_DISCOVER_QUEUE, queueLineItem } from './grades.service.ts';
import { columnOf } from './items.ts';
import { findContext, listContextsOfCourse } from './launch.repo.ts';
import { badGateway, PlatformError } from './platform-http.ts';
import { listPlatformRows } from './platforms.repo.ts';
import { syncRoster } from './roster.service.ts';

/*
 * What editors see and do about the LMS courses linked to theirs (docs/lti.md, "For editors"): the
 * roster sync, and per gradebook column what was sent, what waits and what failed, with "send again".
 * A student of the course gets 403, anyone else 404.
 */

async function authorize(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  if (!canManageCourse(await getCourseRole(ctx.db, actor, courseId))) {
    throw forbidden('Only editors of the course and staff see its LMS links.');
  }
}

export async function listCourseLinks(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<LtiCourseLinks> {
  await authorize(ctx, actor, courseId);
  const contexts = await listContextsOfCourse(ctx.db, courseId);
  if (contexts.length === 0) return { results: [] };
  const [platforms, lineItems, work] = await Promise.all([
    listPlatformRows(ctx.db),
    listLineItemsOfContexts(
      ctx.db,
      contexts.map((c) => c.id),
    ),
    listCourseWork(ctx.db, courseId),
  ]);
  const summaries = new Map(
    (
      await summarizeScores(
        ctx.db,
        lineItems.map((l) => l.id),
      )
    ).map((s) => [s.lineItemId, s]),
  );
  const titleOf = (kind: 'assignment' | 'quiz', id: number) => columnOf(work, { kind, id })?.title ?? '';
  return {
    results: contexts.map((context) => ({
      id: context.id,
      platform: platforms.find((p) => p.id === context.platformId)?.name ?? '',
      title: context.title,
      label: context.label,
      can_sync_roster: context.membershipsUrl !== null,
      roster_synced_at: context.rosterSyncedAt?.toISOString() ?? null,
      roster_error: context.rosterError,
      line_items: lineItems
        .filter((l) => l.contextRowId === context.id)
        .map((l) => {
          const s = summaries.get(l.id);
          return {
            id: l.id,
            kind: l.kind,
            item_id: l.itemId,
            title: titleOf(l.kind, l.itemId) || l.label,
            label: l.label,
            sent: s?.sent ?? 0,
            pending: s?.pending ?? 0,
            failed: s?.failed ?? 0,
            last_sent_at: s?.lastSentAt?.toISOString() ?? null,
            last_error: s?.lastError ?? null,
          };
        }),
    })),
  };
}

export async function syncCourseRoster(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  contextRowId: number,
): Promise<LtiRosterSyncResult> {
  await authorize(ctx, actor, courseId);
  const context = await findContext(ctx.db, contextRowId);
  if (!context || context.courseId !== courseId) throw notFound();
  if (!context.membershipsUrl) throw notFound('The LMS offers no roster for this course.');
  try {
    const result = await syncRoster(ctx, context.id);
    // New people may have scores to send, and the LMS may have made line items meanwhile.
    if (context.lineItemsUrl) await ctx.jobs.send(LTI_DISCOVER_QUEUE, { contextRowId: context.id });
    return result;
  } catch (error) {
    if (error instanceof PlatformError) throw badGateway(error);
    throw error;
  }
}

/** "Send again": every student's score of the line item, also those sent or refused before. */
export async function resendLineItem(
  ctx: AppContext,
  actor: Actor,
  lineItemId: number,
): Promise<{ queued: boolean }> {
  const found = await findLineItemWithContext(ctx.db, lineItemId);
  if (!found?.context.courseId) throw notFound();
  await authorize(ctx, actor, found.context.courseId);
  await queueLineItem(ctx, lineItemId, true);
  return { queued: true };
}
