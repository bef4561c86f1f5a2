import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema.ts';
import { assignments } from './schema-assignments.ts';

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
