import type { AppContext } from '../../lib/context.ts';
import { markEmailRefused } from './mail-delivery.repo.ts';

/**
 * The person's address was refused for good (mail.jobs.ts): their notifications are skipped, not
 * e-mailed, until they save their notification settings again, which clears the mark.
 */
export async function markAddressRefused(ctx: AppContext, userId: number): Promise<void> {
  await markEmailRefused(ctx.db, userId);
}
