import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { DATA_EXPORT_STATUSES, ERASURE_FORUM_TEXT } from '@kadai/contracts';
import { createdAt, users } from './schema.ts';

/* ─── Personal data on request (issue 41; docs/privacy.md) ───────────────────────────────────── */

/**
 * A person's request for a copy of their data: gathered by a background job into a zip in the file
 * store (`storage_key`), downloadable by them until `expires_at`, then deleted (the row stays,
 * `expired`). At most one waits or runs per person: the partial unique index makes a second request
 * a conflict however many instances take it at once.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull().default('pending'),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    /** Runs of the job so far; after the last one fails the export is `failed`. */
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.id),
    uniqueIndex('data_exports_one_open_key')
      .on(t.userId)
      .where(sql`status in ('pending', 'running')`),
    index('data_exports_ready_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status = 'ready'`),
  ],
);

/**
 * The audit entry of an erasure: who erased whom and when, with the settings it ran under and how many
 * rows of each table it deleted or changed. It holds no erased data: the person is named by their id
 * and pseudonym only (their row stays, pseudonymised, so kept grades still have an owner).
 */
export const userErasures = pgTable(
  'user_erasures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    pseudonym: text('pseudonym').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
    keptGrades: boolean('kept_grades').notNull(),
    forumText: text('forum_text', { enum: ERASURE_FORUM_TEXT }).notNull(),
    /** table → rows deleted or changed. */
    rows: jsonb('rows').$type<Record<string, number>>().notNull().default({}),
    /** Stored files deleted after the commit, and how many of those deletions failed (logged). */
    files: integer('files').notNull().default(0),
    filesFailed: integer('files_failed').notNull().default(0),
  },
  (t) => [
    uniqueIndex('user_erasures_user_key').on(t.userId),
    index('user_erasures_erased_idx').on(t.erasedAt),
  ],
);
