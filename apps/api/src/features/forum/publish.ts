import { timingSafeEqual } from 'node:crypto';
import type { ForumFinalizeResult } from '@kadai/contracts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../lib/context.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { announce } from './notices.ts';
import { publishDue } from './records.repo.ts';

/*
 * Scheduled announcements go out at their time (docs/forum.md, "Scheduling"). Three ways lead to the
 * same publishDue(): a job queued for the exact time when the announcement is scheduled, a cron job
 * every minute as a safety net (a lost job, a rescheduled one, a restart), and
 * `POST Forum/scheduled-announcements/finalize` for an outside scheduler. Several of them may run
 * at once: publishDue's UPDATE … WHERE published_at IS NULL publishes each row exactly once.
 */

export const FORUM_FINALIZE_QUEUE = 'forum-finalize';

export async function publishDueAnnouncements(ctx: AppContext): Promise<ForumFinalizeResult> {
  const published = await publishDue(ctx.db, async (tx, rows) => {
    for (const row of rows) if (row.isAnnouncement) await announce(tx, row);
  });
  if (published.length > 0) {
    ctx.log.info({ published: published.map((row) => row.id) }, 'forum: published scheduled posts');
  }
  return { published: published.map((row) => row.id) };
}

/**
 * Queues the job that publishes the record at `at`. After commit and best effort: if the queue is down
 * the minute cron (or the finalize call) still publishes it, so a failure here never fails the post.
 */
export async function queueFinalize(ctx: AppContext, recordId: number, at: Date): Promise<void> {
  try {
    await ctx.jobs.send(
      FORUM_FINALIZE_QUEUE,
      { recordId },
      { startAfter: at, singletonKey: `forum-finalize:${recordId}:${at.toISOString()}` },
    );
  } catch (error) {
    ctx.log.warn({ err: error, recordId }, 'forum: could not queue the finalize job; the cron will');
  }
}

/**
 * Started once per API process from main.ts; the cron fires once per minute across all instances.
 * `onPublished` lets tests see what each job run published.
 */
export async function startForumJobs(
  ctx: AppContext,
  options: { onPublished?: (ids: number[]) => void } = {},
): Promise<void> {
  await ctx.jobs.schedule(FORUM_FINALIZE_QUEUE, '* * * * *');
  await ctx.jobs.work(FORUM_FINALIZE_QUEUE, async () => {
    const { published } = await publishDueAnnouncements(ctx);
    options.onPublished?.(published);
  });
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The finalize call's guard: 404 while no credentials are configured (the route does not exist for
 * anyone), 401 with a Basic challenge for missing or wrong ones.
 */
export function checkFinalizeCredentials(
  config: Pick<Config, 'FORUM_FINALIZE_USER' | 'FORUM_FINALIZE_PASSWORD'>,
  authorization: string | undefined,
): void {
  const user = config.FORUM_FINALIZE_USER;
  const password = config.FORUM_FINALIZE_PASSWORD;
  if (!user || !password) throw notFound();
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  const decoded = match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  // Both halves are compared whatever the first gives, so timing tells nothing about either.
  const userOk = sameSecret(colon < 0 ? '' : decoded.slice(0, colon), user);
  const passwordOk = sameSecret(colon < 0 ? '' : decoded.slice(colon + 1), password);
  if (!userOk || !passwordOk) {
    throw new HttpError(401, 'not_authenticated', 'Invalid credentials.', undefined, {
      'www-authenticate': 'Basic realm="forum-finalize", charset="UTF-8"',
    });
  }
}
