import type { AppContext } from '../../lib/context.ts';
import { queueEmails, writeNotificationEmails } from '../mail/outbox.ts';
import { digestSlot, isDigestDue, zoneOf } from './digest-clock.ts';
import {
  findRecipient,
  listDigestCandidates,
  listWaitingForDigest,
  lockProfile,
  setLastDigestOn,
} from './digest.repo.ts';
import { decideMail } from './mail-choices.ts';
import { setMailStates, type MailState } from './mail-delivery.repo.ts';
import { readerOf } from './mail-delivery.service.ts';
import { renderDigestEmail } from './mail-templates.ts';
import { SETTINGS_PAGE_PATH, unsubscribeLinks } from './unsubscribe-token.ts';

/*
 * The daily digest (docs/notifications.md, "Digests"): once a day, at the person's digest_hour in their
 * own time zone, one e-mail lists what waited for it (mail_state 'digest'), unread ones only, grouped by
 * course. A cron job runs this every 15 minutes, once across instances; a person's digest of a date is
 * written once however often it runs: their profile row is locked and its last_digest_on checked and set
 * in the transaction that writes the e-mail, whose dedupe key (`digest:<user>:<date>`) is the last guard.
 */

/** The digest's hour without a profile row (notification_profiles.digest_hour's default). */
export const DEFAULT_DIGEST_HOUR = 8;
/** Notifications a digest lists; the rest are counted ("and 12 more") and shown in the app. */
export const DIGEST_LIST_LIMIT = 50;
/** The app's page of all notifications, which a long digest points to. */
const NOTIFICATIONS_PAGE_PATH = '/notifications';
const CANDIDATE_BATCH = 500;

export interface DigestRunResult {
  /** Digest e-mails written. */
  digests: number;
  /** People whose digest was due (an e-mail, or none when everything had been read meanwhile). */
  people: number;
}

interface WrittenDigest {
  /** Whether an e-mail was written (none when everything waiting had been read or turned off). */
  emailed: boolean;
  /** The e-mail to queue (none without SMTP: it is kept). */
  toSend: number[];
}

/** Writes one person's digest if it is still due; null when it is not. */
async function writeDigest(ctx: AppContext, userId: number, now: Date): Promise<WrittenDigest | null> {
  return ctx.db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    const recipient = await findRecipient(tx, userId);
    if (!profile || !recipient) return null;
    const zone = zoneOf(profile.timeZone, ctx.config.DEFAULT_TIME_ZONE);
    const slot = digestSlot(now, zone, profile.digestHour);
    const waiting = await listWaitingForDigest(tx, userId, slot.at);
    // Checked again under the lock: another instance may have written it since the candidates were read.
    if (!isDigestDue(now, slot, profile.lastDigestOn, waiting.at(-1)?.createdAt ?? null)) return null;

    const states = new Map<number, MailState>();
    const listed: typeof waiting = [];
    for (const row of waiting) {
      // The choice is read again: a kind turned off or a course muted since the row waited sends nothing.
      const decision = decideMail({
        kind: row.kind,
        canReceive: recipient.isActive && recipient.email !== '',
        isRead: row.readAt !== null,
        isRefused: profile.emailRefusedAt !== null,
        isMuted: row.isMuted,
        saved: profile.email,
      });
      states.set(row.id, decision === 'skip' ? 'skipped' : 'sent');
      if (decision !== 'skip') listed.push(row);
    }
    let toSend: number[] = [];
    if (listed.length > 0) {
      const reader = readerOf({ ...recipient, timeZone: profile.timeZone }, ctx.config);
      const links = unsubscribeLinks(ctx.config, userId, { type: 'all' }, now);
      const mail = renderDigestEmail(
        listed.slice(0, DIGEST_LIST_LIMIT).map((row) => ({ ...row, courseTitle: row.courseTitle ?? null })),
        Math.max(0, listed.length - DIGEST_LIST_LIMIT),
        reader,
        { productName: ctx.config.PRODUCT_NAME, publicUrl: ctx.config.publicUrl },
        {
          settings: `${ctx.config.publicUrl}${SETTINGS_PAGE_PATH}`,
          stopAll: links.page,
          list: `${ctx.config.publicUrl}${NOTIFICATIONS_PAGE_PATH}`,
        },
      );
      toSend = await writeNotificationEmails(tx, ctx.config, [
        {
          kind: 'digest',
          toUserId: userId,
          toAddress: recipient.email,
          lang: reader.language,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          unsubscribeUrl: links.oneClick,
          dedupeKey: `digest:${userId}:${slot.date}`,
        },
      ]);
    }
    await setMailStates(tx, states);
    await setLastDigestOn(tx, userId, slot.date);
    return { emailed: listed.length > 0, toSend };
  });
}

/** Writes the digest of everyone whose digest is due at `now`. */
export async function sendDueDigests(ctx: AppContext, now: Date = new Date()): Promise<DigestRunResult> {
  const result: DigestRunResult = { digests: 0, people: 0 };
  let after = 0;
  for (;;) {
    const candidates = await listDigestCandidates(ctx.db, after, CANDIDATE_BATCH);
    for (const candidate of candidates) {
      const zone = zoneOf(candidate.timeZone, ctx.config.DEFAULT_TIME_ZONE);
      const slot = digestSlot(now, zone, candidate.digestHour ?? DEFAULT_DIGEST_HOUR);
      if (!isDigestDue(now, slot, candidate.lastDigestOn, candidate.oldest)) continue;
      let written: WrittenDigest | null;
      try {
        written = await writeDigest(ctx, candidate.userId, now);
      } catch (error) {
        // One person's failure (their account deleted meanwhile) never holds up the others' digests.
        ctx.log.warn({ err: error, userId: candidate.userId }, 'notifications: a digest failed');
        continue;
      }
      if (written === null) continue;
      result.people += 1;
      if (written.emailed) result.digests += 1;
      await queueEmails(ctx, written.toSend);
    }
    if (candidates.length < CANDIDATE_BATCH) break;
    after = candidates.at(-1)!.userId;
  }
  return result;
}
