import type { Config } from '../../config.ts';
import type { AppContext } from '../../lib/context.ts';
import { nameOf, queueEmails, writeNotificationEmails, type NotificationEmailDraft } from '../mail/outbox.ts';
import { languageOf } from '../users/users.shape.ts';
import { zoneOf } from './digest-clock.ts';
import { decideMail } from './mail-choices.ts';
import {
  claimPendingNotifications,
  setMailStates,
  type MailState,
  type PendingNotification,
} from './mail-delivery.repo.ts';
import type { MailReader } from './mail-sentences.ts';
import { renderNotificationEmail } from './mail-templates.ts';
import { SETTINGS_PAGE_PATH, unsubscribeLinks } from './unsubscribe-token.ts';

/*
 * The mailer (docs/notifications.md, "E-mail" and "Exactly once"): it takes the pending notifications
 * whose mail_after has come, a batch at a time, and decides each by its person's choices. "Immediately"
 * writes the notification's own e-mail to the outbox; "digest" leaves it for the daily digest; the rest
 * are skipped. Several instances may run it at once: each batch is claimed with FOR UPDATE SKIP LOCKED
 * and leaves `pending` in the transaction that writes its e-mails, whose dedupe key is the last guard.
 */

/** Rows per transaction: large enough for a course's announcement in a few batches, short locks. */
export const MAILER_BATCH = 300;
/** Batches per run; whatever remains is the next run's (a minute later, or the next kick). */
const MAX_BATCHES = 20;

export interface MailerResult {
  /** Notifications decided. */
  decided: number;
  /** E-mails written to the outbox (sent, or kept without SMTP). */
  emailed: number;
  /** Left for the digest. */
  digest: number;
  skipped: number;
}

export interface MailerOptions {
  /** The clock the pending rows are compared with (tests); default the database's. */
  now?: Date;
  batchSize?: number;
}

export function readerOf(
  row: Pick<PendingNotification, 'firstName' | 'lastName' | 'displayLang' | 'timeZone'>,
  config: Config,
): MailReader {
  const language = languageOf(row);
  return { name: nameOf(row, language), language, timeZone: zoneOf(row.timeZone, config.DEFAULT_TIME_ZONE) };
}

function draftFor(row: PendingNotification, config: Config, issuedAt: Date): NotificationEmailDraft {
  const reader = readerOf(row, config);
  const stop = (scope: Parameters<typeof unsubscribeLinks>[2]) =>
    unsubscribeLinks(config, row.userId, scope, issuedAt);
  const stopKind = stop({ type: 'kind', kind: row.kind });
  const mail = renderNotificationEmail(
    { ...row, courseTitle: row.courseTitle ?? null },
    reader,
    { productName: config.PRODUCT_NAME, publicUrl: config.publicUrl },
    {
      settings: `${config.publicUrl}${SETTINGS_PAGE_PATH}`,
      stopKind: stopKind.page,
      stopCourse: row.courseId === null ? null : stop({ type: 'course', courseId: row.courseId }).page,
    },
  );
  return {
    kind: 'notification',
    toUserId: row.userId,
    toAddress: row.email,
    lang: reader.language,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // The one-click link turns off this kind, as the e-mail's footer says.
    unsubscribeUrl: stopKind.oneClick,
    dedupeKey: `notification:${row.id}`,
  };
}

/** One batch in one transaction; returns what it decided and the e-mails to queue after commit. */
async function mailBatch(ctx: AppContext, options: MailerOptions, batchSize: number) {
  return ctx.db.transaction(async (tx) => {
    const rows = await claimPendingNotifications(tx, options.now ?? null, batchSize);
    const states = new Map<number, MailState>();
    const drafts: NotificationEmailDraft[] = [];
    const issuedAt = new Date();
    for (const row of rows) {
      const decision = decideMail({
        kind: row.kind,
        canReceive: row.isActive && row.email !== '',
        isRead: row.readAt !== null,
        isRefused: row.emailRefusedAt !== null,
        isMuted: row.isMuted,
        saved: row.saved,
      });
      if (decision === 'immediately') drafts.push(draftFor(row, ctx.config, issuedAt));
      states.set(row.id, decision === 'immediately' ? 'sent' : decision === 'digest' ? 'digest' : 'skipped');
    }
    const toSend = await writeNotificationEmails(tx, ctx.config, drafts);
    await setMailStates(tx, states);
    const count = (state: MailState) => [...states.values()].filter((s) => s === state).length;
    return {
      claimed: rows.length,
      toSend,
      result: {
        decided: rows.length,
        emailed: count('sent'),
        digest: count('digest'),
        skipped: count('skipped'),
      },
    };
  });
}

/** Decides every pending notification whose time has come (up to MAX_BATCHES batches). */
export async function mailPendingNotifications(
  ctx: AppContext,
  options: MailerOptions = {},
): Promise<MailerResult> {
  const batchSize = options.batchSize ?? MAILER_BATCH;
  const total: MailerResult = { decided: 0, emailed: 0, digest: 0, skipped: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const { claimed, toSend, result } = await mailBatch(ctx, options, batchSize);
    // After commit: a lost queue message is found by the outbox's sweep (mail.jobs.ts).
    await queueEmails(ctx, toSend);
    total.decided += result.decided;
    total.emailed += result.emailed;
    total.digest += result.digest;
    total.skipped += result.skipped;
    if (claimed < batchSize) break;
  }
  return total;
}
