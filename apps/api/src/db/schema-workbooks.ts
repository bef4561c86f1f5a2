import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Notebook } from '@kadai/contracts';
import { courses, createdAt, users } from './schema.ts';

/* ─── Workbooks (issue 6; docs/workbooks.md) ─────────────────────────────────────────────────── */

/** A kind of notebook session a course offers: its starter notebook, session length and kernel limits. */
export const workbookConfigs = pgTable(
  'workbook_configs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    lifetimeMinutes: integer('lifetime_minutes').notNull(),
    maxExtensionMinutes: integer('max_extension_minutes').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    cpuSeconds: integer('cpu_seconds').notNull(),
    starter: jsonb('starter').$type<Notebook>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workbook_configs_course_idx').on(t.courseId, t.id)],
);

/** A user's notebook of one configuration: it outlives every session that edits it. */
export const workbookNotebooks = pgTable(
  'workbook_notebooks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    configId: integer('config_id')
      .notNull()
      .references(() => workbookConfigs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    content: jsonb('content').$type<Notebook>().notNull(),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workbook_notebooks_user_config_key').on(t.userId, t.configId)],
);

/**
 * A session: a kernel for a user in a course, until `expires_at` (extendable within the configuration's
 * maximum) or until ended. At most one live session per user and course.
 */
export const workbookSessions = pgTable(
  'workbook_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    configId: integer('config_id')
      .notNull()
      .references(() => workbookConfigs.id, { onDelete: 'cascade' }),
    notebookId: integer('notebook_id')
      .notNull()
      .references(() => workbookNotebooks.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['live', 'ended', 'expired'] })
      .notNull()
      .default('live'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    extendedMinutes: integer('extended_minutes').notNull().default(0),
    /** Copied from the configuration at the start, so editing it does not change running sessions. */
    maxExtensionMinutes: integer('max_extension_minutes').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    cpuSeconds: integer('cpu_seconds').notNull(),
    /** The kernel host (`kernel_hosts.id`) whose process runs this session's kernel; null before its first run. */
    kernelHost: text('kernel_host'),
  },
  (t) => [
    uniqueIndex('workbook_sessions_one_live_key')
      .on(t.userId, t.courseId)
      .where(sql`status = 'live'`),
    index('workbook_sessions_course_idx').on(t.courseId, t.status),
    index('workbook_sessions_live_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status = 'live'`),
  ],
);
