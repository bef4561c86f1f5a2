import { count, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema-mail.ts';

/**
 * E-mails written in the last `hours`, by status now. It reads the range of `email_outbox_created_idx`
 * that those hours cover, never the whole outbox (which keeps every e-mail ever sent), and PostgreSQL
 * ends it after `timeoutMs`: a scrape must stay cheap whatever the outbox holds.
 */
export async function countEmailsSince(db: Db, hours: number, timeoutMs: number) {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`));
    return tx
      .select({ status: emailOutbox.status, count: count() })
      .from(emailOutbox)
      .where(gt(emailOutbox.createdAt, sql`now() - make_interval(hours => ${hours})`))
      .groupBy(emailOutbox.status);
  });
}
