import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { SIMILARITY_STATUSES } from '@kadai/contracts';
import { courses, createdAt, users } from './schema.ts';
import { assignments } from './schema-assignments.ts';

/* ─── Similarity reports (issue 39; docs/similarity.md) ──────────────────────────────────────── */

/**
 * One run of Dolos over an assignment's counted submissions in a course (and optionally another
 * course's), for its editors only. `input` is the snapshot the background job compares — the joined
 * text of each counted submission and the boilerplate — taken when the report was asked for and
 * cleared once it is done or failed; `result` is the StoredSimilarityResult of the contracts (ids,
 * scores and fragments, never names).
 */
export const similarityReports = pgTable(
  'similarity_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    includeCourseId: integer('include_course_id').references(() => courses.id, { onDelete: 'set null' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: SIMILARITY_STATUSES }).notNull().default('queued'),
    error: text('error'),
    input: jsonb('input').$type<unknown>(),
    result: jsonb('result').$type<unknown>(),
    submissionCount: integer('submission_count').notNull().default(0),
    pairCount: integer('pair_count').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('similarity_reports_course_idx').on(t.courseId, t.assignmentId, t.createdAt)],
);
