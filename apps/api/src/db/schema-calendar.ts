import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { courses, createdAt, users } from './schema.ts';

/* ─── Calendar (issue 4) ─────────────────────────────────────────────────────────────────────── */

export const EVENT_KINDS = ['lecture', 'exam', 'office_hours', 'deadline', 'other'] as const;

/** An event an editor puts on a course's calendar. Assignment and quiz dates are not stored here. */
export const events = pgTable(
  'events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: EVENT_KINDS }).notNull().default('other'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    allDay: boolean('all_day').notNull().default(false),
    location: text('location').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_course_starts_idx').on(t.courseId, t.startsAt)],
);

/**
 * A user's private calendar feed. The URL's token is derived from the user id, this version and the
 * server secret (HMAC), so it is never stored; resetting bumps the version and kills the old URL.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: integer('version').notNull().default(1),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull().defaultNow(),
});
