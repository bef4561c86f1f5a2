import type { AppContext } from '../../lib/context.ts';
import { markAddressRefused } from '../notifications/mail-refusal.service.ts';
import {
  claimAttempt,
  findEmail,
  listUntriedPendingIds,
  markAttemptFailed,
  markKept,
  markSent,
} from './mail.repo.ts';
import { EMAIL_SEND_QUEUE, MAX_EMAIL_ATTEMPTS, queueEmails } from './outbox.ts';
import { SMTP_CONNECTIONS, createSmtpSender, type MailSender } from './sender.ts';

export const EMAIL_SWEEP_QUEUE = 'email-sweep';
/** A pending e-mail never tried after this long lost its job (a crash between commit and queueing). */
const LOST_AFTER_SECONDS = 60;
const SWEEP_BATCH = 100;

export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'refused' | 'kept' | 'skipped';

/**
 * The recipient's server refused the address for good: a 5xx answer to RCPT TO (550 mailbox unavailable,
 * 551, 553). Trying again would earn the same answer and harm the sender's reputation. A 5xx elsewhere
 * (to DATA: a policy refusal of this one message) is retried as other failures are.
 */
export function isPermanentRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'responseCode' in error ? error.responseCode : undefined;
  const command = 'command' in error ? error.command : undefined;
  return typeof code === 'number' && code >= 500 && code < 600 && command === 'RCPT TO';
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const response = 'response' in error && typeof error.response === 'string' ? error.response : '';
    return response && !error.message.includes(response) ? `${error.message}: ${response}` : error.message;
  }
  return String(error);
}

/**
 * One attempt at one e-mail. A failed attempt before the last records the error and throws, so pg-boss
 * runs the job again after its backoff; the last failed attempt marks the e-mail `failed` for good. A
 * permanent refusal of the address marks it `failed` at once and marks the address refused, so the
 * person's notifications stop (docs/notifications.md, "E-mail").
 */
export async function deliverEmail(
  ctx: AppContext,
  sender: MailSender | null,
  id: number,
): Promise<DeliveryOutcome> {
  const email = await findEmail(ctx.db, id);
  if (!email || email.status !== 'pending') return 'skipped';
  if (!sender) {
    // SMTP was switched off after the e-mail was written: keep it for staff to read.
    await markKept(ctx.db, id);
    return 'kept';
  }
  const claimed = await claimAttempt(ctx.db, id, email.attempts);
  if (!claimed) return 'skipped';
  try {
    await sender.send({
      to: claimed.toAddress,
      subject: claimed.subject,
      text: claimed.textBody,
      html: claimed.htmlBody || undefined,
      unsubscribeUrl: claimed.unsubscribeUrl || undefined,
    });
  } catch (error) {
    if (isPermanentRefusal(error)) {
      await markAttemptFailed(ctx.db, id, describe(error), true);
      if (claimed.toUserId !== null) await markAddressRefused(ctx, claimed.toUserId);
      ctx.log.warn({ err: error, emailId: id }, 'mail: the address was refused for good; not retried');
      return 'refused';
    }
    const isFinal = claimed.attempts >= MAX_EMAIL_ATTEMPTS;
    await markAttemptFailed(ctx.db, id, describe(error), isFinal);
    ctx.log.warn({ err: error, emailId: id, attempt: claimed.attempts }, 'mail: sending failed');
    if (isFinal) return 'failed';
    throw error;
  }
  await markSent(ctx.db, id);
  return 'sent';
}

/** Queues e-mails whose job was lost; returns how many. */
export async function sweepLostEmails(ctx: AppContext): Promise<number> {
  const ids = await listUntriedPendingIds(ctx.db, LOST_AFTER_SECONDS, SWEEP_BATCH);
  await queueEmails(ctx, ids);
  return ids.length;
}

/**
 * Started once per API process from main.ts. `onDelivered` lets tests see each attempt. Every instance
 * sends; the sweep runs every five minutes, once across all instances.
 */
export async function startMailJobs(
  ctx: AppContext,
  options: { sender?: MailSender | null; onDelivered?: (id: number, outcome: DeliveryOutcome) => void } = {},
): Promise<{ close(): void }> {
  const sender = options.sender === undefined ? createSmtpSender(ctx.config) : options.sender;
  // One fetch loop per SMTP connection: that many e-mails in flight, each its own job (a failure retries
  // that e-mail alone).
  for (let loop = 0; loop < SMTP_CONNECTIONS; loop++) {
    await ctx.jobs.work<{ id: number }>(EMAIL_SEND_QUEUE, async (jobs) => {
      for (const job of jobs) {
        let outcome: DeliveryOutcome = 'retry';
        try {
          outcome = await deliverEmail(ctx, sender, job.data.id);
        } finally {
          options.onDelivered?.(job.data.id, outcome);
        }
      }
    });
  }
  await ctx.jobs.schedule(EMAIL_SWEEP_QUEUE, '*/5 * * * *');
  await ctx.jobs.work(EMAIL_SWEEP_QUEUE, async () => {
    const queued = await sweepLostEmails(ctx);
    if (queued > 0) ctx.log.info({ queued }, 'mail: queued e-mails whose job was lost');
  });
  // The sender's kept-open SMTP connections, closed once the jobs have stopped.
  return { close: () => sender?.close() };
}
