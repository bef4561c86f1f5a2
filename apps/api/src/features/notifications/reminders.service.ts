import type { AppContext } from '../../lib/context.ts';
import { insertDeadlineReminders, insertQuizOpenings } from './reminders.repo.ts';

/*
 * Reminders nobody's action sets off (docs/notifications.md, "Reminders"): deadlines within a day and
 * quizzes that just opened. A pg-boss cron every 15 minutes, once per slot across every instance; and
 * were two runs to overlap (a slow run, a manual one), the event keys still make each reminder once.
 */

export const REMINDERS_QUEUE = 'notification-reminders';
const EVERY_15_MINUTES = '*/15 * * * *';

export interface RemindersRun {
  deadlines: number;
  quizzesOpened: number;
}

/** One run over every course: how many notifications it added of each kind. */
export async function sendReminders(ctx: AppContext): Promise<RemindersRun> {
  const deadlines = await insertDeadlineReminders(ctx.db);
  const quizzesOpened = await insertQuizOpenings(ctx.db);
  if (deadlines + quizzesOpened > 0) {
    ctx.log.info({ deadlines, quizzesOpened }, 'notifications: reminders added');
  }
  return { deadlines, quizzesOpened };
}

/** Started once per API process from main.ts. `onRun` lets tests see each run. */
export async function startReminderJobs(
  ctx: AppContext,
  options: { onRun?: (run: RemindersRun) => void } = {},
): Promise<void> {
  await ctx.jobs.schedule(REMINDERS_QUEUE, EVERY_15_MINUTES);
  await ctx.jobs.work(REMINDERS_QUEUE, async () => {
    const run = await sendReminders(ctx);
    options.onRun?.(run);
  });
}
