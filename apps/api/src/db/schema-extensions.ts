import {
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { courses, users } from './schema.ts';
import { assignmentCourses } from './schema-assignments.ts';
import { quizCourses } from './schema-quizzes.ts';

/* ─── Per-student extensions (issue 21; docs/extensions.md) ──────────────────────────────────── */

/**
 * One student's own dates for an assignment in a course. They replace the course's `due_at` and
 * `late_until` for that student everywhere: the submit rules, lists, calendar and feed. `late_until`
 * null: no late period for them.
 */
export const assignmentExtensions = pgTable(
  'assignment_extensions',
  {
    assignmentId: integer('assignment_id').notNull(),
    courseId: integer('course_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    lateUntil: timestamp('late_until', { withTimezone: true }),
    reason: text('reason').notNull(),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.courseId, t.userId] }),
    foreignKey({
      columns: [t.assignmentId, t.courseId],
      foreignColumns: [assignmentCourses.assignmentId, assignmentCourses.courseId],
      name: 'assignment_extensions_assignment_course_fk',
    }).onDelete('cascade'),
    index('assignment_extensions_course_idx').on(t.courseId),
    index('assignment_extensions_user_idx').on(t.userId),
    check(
      'assignment_extensions_late_after_due',
      sql`${t.lateUntil} is null or ${t.lateUntil} >= ${t.dueAt}`,
    ),
  ],
);

/**
 * One student's own window for a quiz in a course: a later close (null: the course's) and minutes added
 * to the time limit (null: none).
 */
export const quizExtensions = pgTable(
  'quiz_extensions',
  {
    quizCourseId: integer('quiz_course_id')
      .notNull()
      .references(() => quizCourses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    extraMinutes: integer('extra_minutes'),
    reason: text('reason').notNull(),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.quizCourseId, t.userId] }),
    index('quiz_extensions_user_idx').on(t.userId),
    check('quiz_extensions_something', sql`${t.closesAt} is not null or ${t.extraMinutes} is not null`),
  ],
);

export const EXTENSION_ACTIONS = ['granted', 'changed', 'revoked'] as const;

/**
 * Who granted, changed or revoked which extension, when and why. Kept when the extension, the item or the
 * people go: the titles and names are copied in.
 */
export const extensionAudit = pgTable(
  'extension_audit',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['assignment', 'quiz'] }).notNull(),
    itemId: integer('item_id').notNull(),
    itemTitle: text('item_title').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    action: text('action', { enum: EXTENSION_ACTIONS }).notNull(),
    /** The student's dates before and after: `{due_at, late_until}` or `{closes_at, extra_minutes}`. */
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('extension_audit_course_idx').on(t.courseId, t.id)],
);
