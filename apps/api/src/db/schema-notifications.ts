import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS, type NotificationFacts } from '@kadai/contracts';
import { courses, createdAt, users } from './schema.ts';

/* ─── Notifications (issue 40; docs/notifications.md) ────────────────────────────────────────── */

/**
 * What a notification's e-mail has come to. `pending`: the mailer has not looked yet; `digest`: waits
 * for the person's daily digest; `sent`: its own e-mail (or the digest's) is in the outbox — without
 * SMTP kept there for staff to read, as account e-mails are; `skipped`: none will go (off, a muted
 * course, read in the app first, a refused address, an inactive account).
 */
export const MAIL_STATES = ['pending', 'digest', 'sent', 'skipped'] as const;

/**
 * One thing that happened, for one person. Made by one INSERT … SELECT per event (a fan-out), each row
 * once: `(user_id, event_key)` is unique and every writer inserts ON CONFLICT DO NOTHING, so a retried
 * job, a second instance or a re-published announcement adds nothing.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    /** What happened, the same for every recipient of it: `announcement:12`, `deadline:assignment:4:…`. */
    eventKey: text('event_key').notNull(),
    /** The app's path of what it is about. */
    link: text('link').notNull(),
    facts: jsonb('facts').$type<NotificationFacts>().notNull().default({}),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    mailState: text('mail_state', { enum: MAIL_STATES }).notNull().default('pending'),
    /** The mailer looks at a pending row from then on (a graded submission waits for its author to look). */
    mailAfter: timestamp('mail_after', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notifications_user_event_key').on(t.userId, t.eventKey),
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} IS NULL`),
    index('notifications_mail_pending_idx')
      .on(t.mailAfter)
      .where(sql`${t.mailState} = 'pending'`),
    index('notifications_digest_idx')
      .on(t.userId)
      .where(sql`${t.mailState} = 'digest'`),
  ],
);

/** A person's e-mail choices; no row: the defaults (DEFAULT_EMAIL_CHOICE, a digest at 08:00). */
export const notificationProfiles = pgTable('notification_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** kind → 'immediately' | 'digest' | 'off', for the kinds the person changed. */
  email: jsonb('email').$type<Record<string, string>>().notNull().default({}),
  digestHour: integer('digest_hour').notNull().default(8),
  /** An IANA zone; null follows the server's DEFAULT_TIME_ZONE. */
  timeZone: text('time_zone'),
  /** The address refused mail for good (a 5xx on RCPT): nothing is sent until the person saves again. */
  emailRefusedAt: timestamp('email_refused_at', { withTimezone: true }),
  /** The person's local date (YYYY-MM-DD) of their last digest: one a day, however many instances. */
  lastDigestOn: text('last_digest_on'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Courses whose notifications send a person no e-mail (the bell still shows them). */
export const notificationMutes = pgTable(
  'notification_mutes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
);
