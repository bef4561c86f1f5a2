import type { EmailStatus } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { countEmailsSince } from './outbox-counts.repo.ts';

/** The window of the e-mail gauges (docs/operations.md, "Metrics"). */
export const RECENT_EMAIL_HOURS = 24;

/**
 * E-mails written in the last RECENT_EMAIL_HOURS by their status now (pending, sent, failed, kept), every
 * status present: what the metrics report at scrape time.
 */
export async function countRecentEmails(
  ctx: Pick<AppContext, 'db'>,
  timeoutMs: number,
): Promise<Record<EmailStatus, number>> {
  // Every status named, so the compiler asks for a new one here.
  const counts: Record<EmailStatus, number> = { pending: 0, sent: 0, failed: 0, kept: 0 };
  for (const row of await countEmailsSince(ctx.db, RECENT_EMAIL_HOURS, timeoutMs))
    counts[row.status] = row.count;
  return counts;
}
