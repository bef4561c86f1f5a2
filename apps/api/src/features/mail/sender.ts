import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to the text (notifications and digests). */
  html?: string;
  /** The one-click unsubscribe URL of RFC 8058 (notifications and digests). */
  unsubscribeUrl?: string;
}

/**
 * RFC 8058: `List-Unsubscribe: <https://…>` names the URL and `List-Unsubscribe-Post` tells the mail
 * client that a POST of `List-Unsubscribe=One-Click` to it unsubscribes, with no page to visit.
 */
export function listHeaders(unsubscribeUrl: string | undefined): {
  list?: { unsubscribe: string };
  headers: Record<string, string>;
} {
  if (!unsubscribeUrl) return { headers: {} };
  return {
    list: { unsubscribe: unsubscribeUrl },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** SMTP connections one API process keeps open, and so e-mails it sends at once (mail.jobs.ts). */
export const SMTP_CONNECTIONS = 4;

/** Sends one e-mail or throws with the server's answer. */
export interface MailSender {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** `"Kadai" <no-reply@localhost>` unless MAIL_FROM says otherwise. */
export function mailFrom(config: Config): string {
  if (config.MAIL_FROM) return config.MAIL_FROM;
  const name = config.PRODUCT_NAME.replace(/["\\\r\n]/g, '');
  return `"${name}" <no-reply@localhost>`;
}

/**
 * The SMTP sender of SMTP_HOST, or null when none is configured (e-mails are then kept in the outbox).
 * Without SMTP_SECURE the connection starts plain and nodemailer upgrades it with STARTTLS whenever the
 * server offers it; certificates are always verified.
 */
export function createSmtpSender(config: Config): MailSender | null {
  if (!config.SMTP_HOST) return null;
  const transport = nodemailer.createTransport({
    // A few connections kept open and reused: one per e-mail (a greeting, STARTTLS and AUTH each time)
    // held delivery to about 8 e-mails a second (docs/performance.md, "Notifications").
    pool: true,
    maxConnections: SMTP_CONNECTIONS,
    maxMessages: 100,
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const from = mailFrom(config);
  return {
    async send(email) {
      const list = listHeaders(email.unsubscribeUrl);
      await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(list.list ? { list: list.list } : {}),
        // RFC 3834: vacation responders must not answer a machine.
        headers: { 'Auto-Submitted': 'auto-generated', ...list.headers },
      });
    },
    close: () => transport.close(),
  };
}
