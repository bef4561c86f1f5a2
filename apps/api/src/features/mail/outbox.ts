import { personName, type EmailKind, type Language as LanguageCode } from '@kadai/contracts';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { languageOf } from '../users/users.shape.ts';
import { findInvitationContext, insertEmails, insertEmailsOnce } from './mail.repo.ts';
import { renderEmail } from './templates.ts';

/**
 * Writing e-mails: each one is a row of email_outbox, inserted in the transaction that causes it (so an
 * invitation exists exactly when its account does), then a job sends it after commit (mail.jobs.ts).
 */

export const EMAIL_SEND_QUEUE = 'email-send';
/** One first try and four retries with backoff (SMTP_RETRY_DELAY, then about twice as long each time). */
export const MAX_EMAIL_ATTEMPTS = 5;
/** E-mails queued per statement. */
const QUEUE_CHUNK = 500;

/**
 * Who an e-mail goes to: an account's row, named from the schema (users.service.ts imports this file to
 * write its e-mails, so a type import back from it would close a circle).
 */
export type Recipient = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'firstName' | 'lastName' | 'displayLang'
>;

export interface EmailDraft {
  kind: Exclude<EmailKind, 'notification' | 'digest'>;
  to: Recipient;
  link: string;
  lifetimeSeconds: number;
  courseTitle?: string;
  inviterName?: string;
}

/** E-mails leave the system only through SMTP; without it they are kept for staff to read. */
export function isMailDelivered(config: Config): boolean {
  return config.SMTP_HOST !== undefined;
}

/** The screens' rule (`personName` of the contracts): family name first in Japanese; empty with no name. */
export function nameOf(person: { firstName: string; lastName: string }, language: LanguageCode): string {
  return personName({ first_name: person.firstName, last_name: person.lastName }, language);
}

/** Inserts the e-mails, each in its recipient's language; returns the ids of those to send. */
export async function writeEmails(tx: Executor, config: Config, drafts: EmailDraft[]): Promise<number[]> {
  const status = isMailDelivered(config) ? ('pending' as const) : ('kept' as const);
  const rows = await insertEmails(
    tx,
    drafts.map((draft) => {
      const lang = languageOf(draft.to);
      const { subject, text } = renderEmail(draft.kind, lang, {
        productName: config.PRODUCT_NAME,
        link: draft.link,
        lifetimeSeconds: draft.lifetimeSeconds,
        recipientName: nameOf(draft.to, lang),
        courseTitle: draft.courseTitle,
        inviterName: draft.inviterName,
        loginUrl: `${config.publicUrl}/login`,
      });
      return {
        kind: draft.kind,
        toAddress: draft.to.email,
        toUserId: draft.to.id,
        lang,
        subject,
        textBody: text,
        status,
      };
    }),
  );
  return rows.filter((row) => row.status === 'pending').map((row) => row.id);
}

/**
 * A notification's or a digest's e-mail, already written in its recipient's language by the
 * notifications feature (its mail-templates.ts), with both parts and its one-click unsubscribe URL.
 */
export interface NotificationEmailDraft {
  kind: Extract<EmailKind, 'notification' | 'digest'>;
  toUserId: number;
  toAddress: string;
  lang: LanguageCode;
  subject: string;
  text: string;
  html: string;
  /** Sent as List-Unsubscribe with List-Unsubscribe-Post (RFC 8058). */
  unsubscribeUrl: string;
  /** One e-mail per key, ever: `notification:<id>`, `digest:<user>:<local date>`. */
  dedupeKey: string;
}

/**
 * Inserts the e-mails whose key is not in the outbox yet (kept, not sent, without SMTP); returns the ids
 * of those to send. In the caller's transaction, beside the change of the notifications they tell of.
 */
export async function writeNotificationEmails(
  tx: Executor,
  config: Config,
  drafts: NotificationEmailDraft[],
): Promise<number[]> {
  const status = isMailDelivered(config) ? ('pending' as const) : ('kept' as const);
  const rows = await insertEmailsOnce(
    tx,
    drafts.map((draft) => ({
      kind: draft.kind,
      toAddress: draft.toAddress,
      toUserId: draft.toUserId,
      lang: draft.lang,
      subject: draft.subject,
      textBody: draft.text,
      htmlBody: draft.html,
      unsubscribeUrl: draft.unsubscribeUrl,
      dedupeKey: draft.dedupeKey,
      status,
    })),
  );
  return rows.filter((row) => row.status === 'pending').map((row) => row.id);
}

/** The course and inviter an invitation names, in the recipient's language where it matters. */
export async function invitationContext(
  tx: Executor,
  courseId: number,
  inviterId: number,
): Promise<{ courseTitle?: string; inviterName?: (language: LanguageCode) => string }> {
  const found = await findInvitationContext(tx, courseId, inviterId);
  const inviter = found.inviter;
  return {
    courseTitle: found.courseTitle ?? undefined,
    inviterName: inviter ? (language) => nameOf(inviter, language) : undefined,
  };
}

/**
 * Queues the sending of committed e-mails. Best effort: if the queue is down, the sweep of mail.jobs.ts
 * finds the e-mails still pending and queues them, so a failure here never fails the request.
 */
export async function queueEmails(ctx: AppContext, ids: number[]): Promise<void> {
  // In chunks, each one statement: a course's announcement to 2,000 students queues in a few round trips.
  for (let at = 0; at < ids.length; at += QUEUE_CHUNK) {
    const chunk = ids.slice(at, at + QUEUE_CHUNK);
    try {
      await ctx.jobs.sendMany(
        EMAIL_SEND_QUEUE,
        chunk.map((id) => ({
          data: { id },
          options: {
            retryLimit: MAX_EMAIL_ATTEMPTS - 1,
            retryDelay: ctx.config.SMTP_RETRY_DELAY,
            retryBackoff: true,
            singletonKey: `email:${id}`,
          },
        })),
      );
    } catch (error) {
      ctx.log.warn({ err: error, emails: chunk.length }, 'mail: could not queue the e-mails; the sweep will');
    }
  }
}
