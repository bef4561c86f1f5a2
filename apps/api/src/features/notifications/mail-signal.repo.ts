import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** The channel that tells the mailer new notifications were committed (mail-jobs.ts listens). */
export const NEW_NOTIFICATIONS_CHANNEL = 'kadai_notifications';

/**
 * NOTIFY in the fan-out's transaction: PostgreSQL delivers it at commit and not at all on rollback, and
 * folds the signals of one transaction into one, so the mailer is woken once, after the rows exist.
 */
export async function signalNewNotifications(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${NEW_NOTIFICATIONS_CHANNEL}, '')`);
}
