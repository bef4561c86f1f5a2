import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema.ts';

/* ─── Google sign-in and e-mail (issue 7; docs/accounts.md) ──────────────────────────────────── */

/** An account at an identity provider, linked by the provider's subject id (never by e-mail alone). */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider', { enum: ['google'] }).notNull(),
    /** The provider's stable user id (Google's `sub`). */
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The verified e-mail the provider last reported, for display. */
    email: text('email').notNull(),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('social_accounts_provider_subject_key').on(t.provider, t.subject),
    index('social_accounts_user_idx').on(t.userId),
  ],
);

export const EMAIL_KINDS = [
  'verify_email',
  'invitation',
  'set_password',
  'notification',
  'digest',
  'data_export',
] as const;
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'kept'] as const;

/**
 * Every e-mail the system sends, written in the transaction that causes it. A job sends it over SMTP
 * (`sent`, or `failed` after its retries); without SMTP it stays here (`kept`) for staff to read.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    toAddress: text('to_address').notNull(),
    toUserId: integer('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    lang: text('lang').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /** The HTML part (notifications and digests; empty: text only). */
    htmlBody: text('html_body').notNull().default(''),
    /** The one-click unsubscribe URL (RFC 8058), sent as List-Unsubscribe with List-Unsubscribe-Post. */
    unsubscribeUrl: text('unsubscribe_url').notNull().default(''),
    /** Written once per key (`notification:12`, `digest:7:2026-11-29`): a second writer's insert does nothing. */
    dedupeKey: text('dedupe_key'),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_outbox_created_idx').on(t.createdAt),
    index('email_outbox_user_idx').on(t.toUserId),
    uniqueIndex('email_outbox_dedupe_key').on(t.dedupeKey),
  ],
);
