import type { AppContext } from '../../lib/context.ts';
import { deleteDeadAuthRows } from './auth.repo.ts';
import { deleteClosedWindows } from './throttle.repo.ts';

export const AUTH_HOUSEKEEPING_QUEUE = 'auth-housekeeping';

/** Dead sessions are kept this long after they began, with why they ended, for audits. */
export const SESSION_AUDIT_DAYS = 90;

/**
 * Every refresh adds a token row and every failed sign-in with an invented e-mail a throttle row;
 * without pruning these tables only grow.
 */
export async function pruneAuthRows(ctx: AppContext) {
  const dead = await deleteDeadAuthRows(ctx.db, SESSION_AUDIT_DAYS);
  const throttleRows = await deleteClosedWindows(ctx.db, ctx.config.LOGIN_THROTTLE_WINDOW);
  return { ...dead, throttleRows };
}

/** Hourly, once across all API instances (pg-boss cron); any instance may do the work. */
export async function startAuthHousekeeping(ctx: AppContext): Promise<void> {
  await ctx.jobs.schedule(AUTH_HOUSEKEEPING_QUEUE, '23 * * * *');
  await ctx.jobs.work(AUTH_HOUSEKEEPING_QUEUE, async () => {
    const pruned = await pruneAuthRows(ctx);
    ctx.log.info({ pruned }, 'auth housekeeping');
  });
}
