import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema.ts';
import { assignments, submissions } from './schema-assignments.ts';

/* ─── Around submissions: prechecks' rate limit and leaderboard names (docs/submissions.md) ─────── */

/**
 * When someone ran a precheck (the visible tests, nothing stored): only for its rate limit, which every
 * API instance must share. Rows older than an hour are deleted as new ones come.
 */
export const precheckRuns = pgTable(
  'precheck_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('precheck_runs_user_idx').on(t.userId, t.assignmentId, t.createdAt)],
);

/** How a student appears on leaderboards: a nickname of their choice, or not at all. */
export const leaderboardProfiles = pgTable(
  'leaderboard_profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickname: text('nickname'),
    optOut: boolean('opt_out').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One nickname, one person (case-insensitively), so nobody can pass for someone else on a board.
  (t) => [uniqueIndex('leaderboard_profiles_nickname_key').on(sql`lower(${t.nickname})`)],
);

/**
 * A submit's `Idempotency-Key` (issue 36): a retried submit with the same key — a client or a proxy that
 * timed out on work that had committed — gets the first one's submission back and creates nothing. Kept
 * as long as the submission is; the key is the person's own, so two people's keys never meet.
 */
export const submitKeys = pgTable(
  'submit_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the request body: the same key with other content is refused, not replayed. */
    requestHash: text('request_hash').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('submit_keys_submission_idx').on(t.submissionId)],
);
