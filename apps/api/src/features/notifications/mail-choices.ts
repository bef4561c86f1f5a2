import { DEFAULT_EMAIL_CHOICE, EmailChoice, type NotificationKind } from '@kadai/contracts';

/*
 * Whether a notification goes by e-mail, and how: the one rule the mailer (a pending row) and the digest
 * (a row waiting for it) both apply, at the moment they send, so a choice changed meanwhile counts.
 */

/** A person's choice for a kind: what they saved (notification_profiles.email), else the default. */
export function choiceFor(
  saved: Record<string, string> | null | undefined,
  kind: NotificationKind,
): EmailChoice {
  const parsed = EmailChoice.safeParse(saved?.[kind]);
  return parsed.success ? parsed.data : DEFAULT_EMAIL_CHOICE[kind];
}

export interface MailSituation {
  kind: NotificationKind;
  /** The account is active and has an address. */
  canReceive: boolean;
  /** Read in the app before the mailer came to it: the person has seen it. */
  isRead: boolean;
  /** The address refused mail for good (email_refused_at), until the person saves their settings. */
  isRefused: boolean;
  /** The notification's course is muted by the person. */
  isMuted: boolean;
  /** notification_profiles.email, or null without a profile row. */
  saved: Record<string, string> | null;
}

export type MailDecision = 'immediately' | 'digest' | 'skip';

export function decideMail(situation: MailSituation): MailDecision {
  if (!situation.canReceive || situation.isRead || situation.isRefused || situation.isMuted) return 'skip';
  const choice = choiceFor(situation.saved, situation.kind);
  return choice === 'off' ? 'skip' : choice;
}
