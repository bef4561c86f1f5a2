import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { courses, createdAt, users } from './schema.ts';
import { assignments, submissions } from './schema-assignments.ts';

/* ─── The teacher's review: rubrics, manual grades, line comments, regrade requests (issue 39) ── */

const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * How an assignment's counted score is made once a review is released (docs/review.md, "Score"):
 * `autograde_weight × autograded + rubric_weight × (ticked items + adjustment)`, kept within 0 and
 * `autograde_weight × autograded maximum + rubric_weight × rubric_max`. No row: weights 1, rubric_max 0
 * (the rubric only adds within the autograder's maximum, or takes away).
 */
export const reviewSettings = pgTable('review_settings', {
  assignmentId: integer('assignment_id')
    .primaryKey()
    .references(() => assignments.id, { onDelete: 'cascade' }),
  autogradeWeight: doublePrecision('autograde_weight').notNull().default(1),
  rubricWeight: doublePrecision('rubric_weight').notNull().default(1),
  rubricMax: doublePrecision('rubric_max').notNull().default(0),
  updatedAt: updatedAt(),
});

/** One item of an assignment's rubric: points may be negative (a deduction); grouped, then ordered. */
export const rubricItems = pgTable(
  'rubric_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    groupTitle: text('group_title').notNull().default(''),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    points: doublePrecision('points').notNull(),
    position: integer('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('rubric_items_assignment_idx').on(t.assignmentId, t.position)],
);

export const REVIEW_STATUSES = ['draft', 'graded'] as const;

/**
 * An editor's review of one submission. `rubric_points` is the sum of the ticked items' points, kept
 * current in the transaction that changes the rubric; the counted score is computed when read
 * (db/review-score.ts), so a rerun of the autograder needs nothing here. Students see nothing of it
 * until `released_at`. `version` grows with every save: two editors grading at once meet a 409.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The submission's author. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REVIEW_STATUSES }).notNull().default('draft'),
    rubricPoints: doublePrecision('rubric_points').notNull().default(0),
    adjustment: doublePrecision('adjustment').notNull().default(0),
    adjustmentReason: text('adjustment_reason').notNull().default(''),
    /** Markdown for the whole submission. */
    comment: text('comment').notNull().default(''),
    graderId: integer('grader_id').references(() => users.id, { onDelete: 'set null' }),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: integer('released_by').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_submission_key').on(t.submissionId),
    index('reviews_assignment_course_idx').on(t.assignmentId, t.courseId),
    index('reviews_user_idx').on(t.userId),
  ],
);

/** The rubric items ticked on a review. */
export const reviewItems = pgTable(
  'review_items',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    rubricItemId: integer('rubric_item_id')
      .notNull()
      .references(() => rubricItems.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.reviewId, t.rubricItemId] }),
    index('review_items_rubric_item_idx').on(t.rubricItemId),
  ],
);

/**
 * A comment on lines of a submitted file, or a reply in its thread (`parent_id`: the thread's first
 * comment; replies keep its file and lines). Editors start threads; the author may reply once the review
 * is released.
 */
export const reviewComments = pgTable(
  'review_comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    filename: text('filename').notNull(),
    lineStart: integer('line_start').notNull(),
    lineEnd: integer('line_end').notNull(),
    body: text('body').notNull(),
    rubricItemId: integer('rubric_item_id').references(() => rubricItems.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({ columns: [t.parentId], foreignColumns: [t.id] }).onDelete('cascade'),
    index('review_comments_review_idx').on(t.reviewId, t.id),
    index('review_comments_parent_idx').on(t.parentId),
  ],
);

/** A course's library of comments editors insert again, with how often each was used. */
export const savedComments = pgTable(
  'saved_comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    rubricItemId: integer('rubric_item_id').references(() => rubricItems.id, { onDelete: 'set null' }),
    uses: integer('uses').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('saved_comments_course_idx').on(t.courseId, t.title)],
);

export const REGRADE_STATUSES = ['open', 'answered'] as const;

/** A student's request to look again at one rubric item or one comment thread of a released review. */
export const regradeRequests = pgTable(
  'regrade_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rubricItemId: integer('rubric_item_id').references(() => rubricItems.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => reviewComments.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: REGRADE_STATUSES }).notNull().default('open'),
    answer: text('answer').notNull().default(''),
    answeredBy: integer('answered_by').references(() => users.id, { onDelete: 'set null' }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Once per item and once per comment, however often the student clicks.
    uniqueIndex('regrade_requests_item_key')
      .on(t.reviewId, t.rubricItemId)
      .where(sql`rubric_item_id is not null`),
    uniqueIndex('regrade_requests_comment_key')
      .on(t.reviewId, t.commentId)
      .where(sql`comment_id is not null`),
    index('regrade_requests_course_idx').on(t.courseId, t.status, t.createdAt),
  ],
);

/**
 * Everything done to reviews, kept when the review goes (no foreign keys to the objects it names): who
 * graded, released, commented, asked or answered, and what changed.
 */
export const reviewAudit = pgTable(
  'review_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    assignmentId: integer('assignment_id').notNull(),
    submissionId: integer('submission_id'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: createdAt(),
  },
  (t) => [
    index('review_audit_submission_idx').on(t.submissionId, t.at),
    index('review_audit_course_idx').on(t.courseId, t.at),
  ],
);
