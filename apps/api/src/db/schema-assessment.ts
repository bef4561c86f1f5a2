import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { WORKSHOP_STATUSES } from '@kadai/contracts';
import { courses, createdAt, users } from './schema.ts';
import { assignments, testCases } from './schema-assignments.ts';
import { quizQuestions } from './schema-quizzes.ts';

/* ─── Assessment analysis (issue 7; docs/assessment.md) ──────────────────────────────────────── */

/** A skill a course assesses, e.g. 'Loops' of type 'programming'. Names are unique in a course. */
export const skills = pgTable(
  'skills',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    skillType: text('skill_type').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('skills_course_name_key').on(t.courseId, t.name)],
);

/**
 * One item tagged with a skill: a whole assignment (all its test cases), one test case, or one quiz
 * question. Exactly one of the three references is set.
 */
export const skillItems = pgTable(
  'skill_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'cascade' }),
    testCaseId: integer('test_case_id').references(() => testCases.id, { onDelete: 'cascade' }),
    quizQuestionId: integer('quiz_question_id').references(() => quizQuestions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'skill_items_one_target',
      sql`num_nonnulls(${t.assignmentId}, ${t.testCaseId}, ${t.quizQuestionId}) = 1`,
    ),
    uniqueIndex('skill_items_assignment_key')
      .on(t.skillId, t.assignmentId)
      .where(sql`assignment_id IS NOT NULL`),
    uniqueIndex('skill_items_test_case_key')
      .on(t.skillId, t.testCaseId)
      .where(sql`test_case_id IS NOT NULL`),
    uniqueIndex('skill_items_quiz_question_key')
      .on(t.skillId, t.quizQuestionId)
      .where(sql`quiz_question_id IS NOT NULL`),
    index('skill_items_assignment_idx').on(t.assignmentId),
    index('skill_items_test_case_idx').on(t.testCaseId),
    index('skill_items_quiz_question_idx').on(t.quizQuestionId),
  ],
);

/** A note an editor writes to one student of a course, optionally about one skill. */
export const assessmentFeedback = pgTable(
  'assessment_feedback',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    skillId: integer('skill_id').references(() => skills.id, { onDelete: 'set null' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Markdown, rendered safely by the web app. */
    body: text('body').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assessment_feedback_course_user_idx').on(t.courseId, t.userId, t.createdAt)],
);

/** An extra session on a skill, with the students invited to it and who attended. */
export const workshops = pgTable(
  'workshops',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    skillId: integer('skill_id').references(() => skills.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('workshops_course_idx').on(t.courseId, t.startsAt)],
);

export const workshopParticipants = pgTable(
  'workshop_participants',
  {
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WORKSHOP_STATUSES }).notNull().default('invited'),
  },
  (t) => [
    primaryKey({ columns: [t.workshopId, t.userId] }),
    index('workshop_participants_user_idx').on(t.userId),
  ],
);
