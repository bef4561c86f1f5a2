import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { ltiContexts, ltiLineItems, ltiPlatforms, ltiScores } from '../../db/schema-lti.ts';

/*
 * The LMS gradebook columns Kadai fills and what it sent to each (AGS 2.0). A score row says what the
 * last attempt was about: `sent` (the platform has it), `pending` (to send, or failed for a while and
 * retried) or `failed` (refused for good until the score changes or an editor sends it again).
 */

export type LineItemRow = typeof ltiLineItems.$inferSelect;
export type ScoreRow = typeof ltiScores.$inferSelect;

/** Remembers the line item of an assignment or quiz in an LMS course (the first one recorded stays). */
export async function recordLineItem(
  db: Executor,
  row: {
    contextRowId: number;
    kind: LineItemRow['kind'];
    itemId: number;
    url: string;
    label?: string;
    scoreMaximum?: number | null;
  },
): Promise<void> {
  await db.insert(ltiLineItems).values(row).onConflictDoNothing();
}

export async function findLineItemWithContext(db: Executor, id: number) {
  const rows = await db
    .select({ item: ltiLineItems, context: ltiContexts, platform: ltiPlatforms })
    .from(ltiLineItems)
    .innerJoin(ltiContexts, eq(ltiContexts.id, ltiLineItems.contextRowId))
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiContexts.platformId))
    .where(eq(ltiLineItems.id, id))
    .limit(1);
  return rows[0] ?? null;
}

export async function listLineItemsOfContexts(db: Executor, contextRowIds: number[]): Promise<LineItemRow[]> {
  if (contextRowIds.length === 0) return [];
  return db
    .select()
    .from(ltiLineItems)
    .where(inArray(ltiLineItems.contextRowId, contextRowIds))
    .orderBy(ltiLineItems.id)
    .limit(2000);
}

/** The line items of one assignment or quiz (in every LMS course it is linked from). */
export async function listLineItemIdsOfItem(
  db: Executor,
  kind: LineItemRow['kind'],
  itemId: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: ltiLineItems.id })
    .from(ltiLineItems)
    .where(and(eq(ltiLineItems.kind, kind), eq(ltiLineItems.itemId, itemId)))
    .limit(200);
  return rows.map((r) => r.id);
}

export async function markChecked(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(ltiLineItems).set({ checkedAt: at }).where(eq(ltiLineItems.id, id));
}

export async function listScoreRows(db: Executor, lineItemId: number): Promise<ScoreRow[]> {
  return db.select().from(ltiScores).where(eq(ltiScores.lineItemId, lineItemId)).limit(100_000);
}

export async function saveScoreRow(
  db: Executor,
  row: Pick<ScoreRow, 'lineItemId' | 'userId' | 'score' | 'status' | 'attempts' | 'lastError'> & {
    sentAt?: Date;
  },
): Promise<void> {
  const values = { ...row, updatedAt: new Date() };
  await db
    .insert(ltiScores)
    .values(values)
    .onConflictDoUpdate({ target: [ltiScores.lineItemId, ltiScores.userId], set: values });
}

/** Per line item: how many scores are sent, pending and failed, the last sending and the last error. */
export async function summarizeScores(db: Executor, lineItemIds: number[]) {
  if (lineItemIds.length === 0) return [];
  return db
    .select({
      lineItemId: ltiScores.lineItemId,
      sent: sql<number>`(count(*) filter (where ${ltiScores.status} = 'sent'))::int`.mapWith(Number),
      pending: sql<number>`(count(*) filter (where ${ltiScores.status} = 'pending'))::int`.mapWith(Number),
      failed: sql<number>`(count(*) filter (where ${ltiScores.status} = 'failed'))::int`.mapWith(Number),
      lastSentAt: sql<Date | null>`max(${ltiScores.sentAt})`.mapWith((v: string | null) =>
        v ? new Date(v) : null,
      ),
      lastError: sql<
        string | null
      >`(array_agg(${ltiScores.lastError} order by ${ltiScores.updatedAt} desc) filter (where ${ltiScores.lastError} is not null))[1]`,
    })
    .from(ltiScores)
    .where(inArray(ltiScores.lineItemId, lineItemIds))
    .groupBy(ltiScores.lineItemId);
}

/**
 * Line items whose scores may have changed since they were last checked: work graded or quizzes
 * submitted in their course since, or scores still pending. At most `limit`, oldest check first.
 */
export async function listStaleLineItemIds(db: Executor, limit: number): Promise<number[]> {
  const result = await db.execute(sql`
    select li.id from lti_line_items li
    join lti_contexts c on c.id = li.context_row_id
    join lti_platforms p on p.id = c.platform_id and p.enabled
    where c.course_id is not null and (
      li.checked_at is null
      or exists (select 1 from lti_scores s where s.line_item_id = li.id and s.status = 'pending')
      or (li.kind = 'assignment' and exists (
        select 1 from submissions s where s.assignment_id = li.item_id and s.course_id = c.course_id
          and s.graded_at > li.checked_at))
      or (li.kind = 'quiz' and exists (
        select 1 from quiz_submissions qs where qs.quiz_course_id = li.item_id and qs.submitted_at > li.checked_at)))
    order by li.checked_at nulls first
    limit ${limit}`);
  return z
    .object({ rows: z.array(z.object({ id: z.coerce.number() })) })
    .parse(result)
    .rows.map((r) => r.id);
}
