import type { AppContext } from '../../lib/context.ts';
import { sendDueDigests, type DigestRunResult } from './digest.service.ts';
import { mailPendingNotifications, type MailerResult } from './mail-delivery.service.ts';
import { NEW_NOTIFICATIONS_CHANNEL } from './mail-signal.repo.ts';

/*
 * The notification e-mail jobs (docs/notifications.md, "Exactly once"). The mailer runs every minute and
 * whenever new notifications are committed (their NOTIFY wakes every instance; each queues a kick, and
 * pg-boss keeps one kick per second); the digest runs every 15 minutes. pg-boss fires each cron slot
 * once across all instances; runs that overlap anyway are safe (row locks, states, dedupe keys).
 */

export const NOTIFICATION_MAILER_QUEUE = 'notification-mailer';
export const NOTIFICATION_DIGEST_QUEUE = 'notification-digest';
const KICK = 'kick';
const KICK_DELAY_SECONDS = 1;
/** When each app last queued a kick (a burst of commits queues one). */
const lastKick = new WeakMap<AppContext, number>();

/**
 * Queues a mailer run a second from now, one per second across instances: a kick queued while one
 * waits is the same job, and the job starts after the second it was queued in has ended, so every
 * notification committed within that second is there when it runs. For the same reason this process
 * skips a kick within a second of its last one: that one has not started yet.
 */
export async function kickMailer(ctx: AppContext, now = Date.now()): Promise<void> {
  const last = lastKick.get(ctx);
  if (last !== undefined && now - last < KICK_DELAY_SECONDS * 1000) return;
  lastKick.set(ctx, now);
  try {
    await ctx.jobs.send(
      NOTIFICATION_MAILER_QUEUE,
      {},
      { singletonKey: KICK, singletonSeconds: 1, startAfter: KICK_DELAY_SECONDS, retryLimit: 0 },
    );
  } catch (error) {
    ctx.log.warn({ err: error }, 'notifications: could not wake the mailer; its cron will run');
  }
}

export interface NotificationMailJobs {
  /** Stops listening for new notifications (the queue's loops stop with the queue). */
  stop(): Promise<void>;
}

/** Started once per API process from main.ts. The callbacks let tests see each run. */
export async function startNotificationMailJobs(
  ctx: AppContext,
  options: { onMailed?: (result: MailerResult) => void; onDigests?: (result: DigestRunResult) => void } = {},
): Promise<NotificationMailJobs> {
  await ctx.jobs.work(NOTIFICATION_MAILER_QUEUE, async () => {
    const result = await mailPendingNotifications(ctx);
    if (result.decided > 0) ctx.log.info({ ...result }, 'notifications: mailer decided');
    options.onMailed?.(result);
  });
  await ctx.jobs.schedule(NOTIFICATION_MAILER_QUEUE, '* * * * *');
  await ctx.jobs.work(NOTIFICATION_DIGEST_QUEUE, async () => {
    const result = await sendDueDigests(ctx, new Date());
    if (result.people > 0) ctx.log.info({ ...result }, 'notifications: digests written');
    options.onDigests?.(result);
  });
  await ctx.jobs.schedule(NOTIFICATION_DIGEST_QUEUE, '*/15 * * * *');
  const stopListening = await ctx.database.listen(
    NEW_NOTIFICATIONS_CHANNEL,
    () => void kickMailer(ctx),
    () => undefined,
  );
  return { stop: stopListening };
}
