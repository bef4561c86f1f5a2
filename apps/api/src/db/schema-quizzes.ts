import { sql } from 'drizzle-orm';
import {
  boolean,
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

/* ─── Quizzes (issue 4) ──────────────────────────────────────────────────────────────────────── */

export const QUESTION_KINDS = [
  'single',
  'multiple',
  'true_false',
  'short_text',
  'numeric',
  'ordering',
] as const;

/** A quiz: its questions are shared by every course it is given to (`quiz_courses`). */
export const quizzes = pgTable(
  'quizzes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    /** Markdown, shown before the questions. */
    description: text('description').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('quizzes_created_by_idx').on(t.createdBy)],
);

/**
 * One question. `options` ([{ id, text }]) are what students see; `answer_key` (its shape depends on the
 * kind, see contracts/quizzes.ts) never leaves the server for a student before review opens.
 */
export const quizQuestions = pgTable(
  'quiz_questions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    quizId: integer('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    kind: text('kind', { enum: QUESTION_KINDS }).notNull(),
    /** Markdown. */
    prompt: text('prompt').notNull(),
    points: integer('points').notNull().default(1),
    shuffleOptions: boolean('shuffle_options').notNull().default(false),
    options: jsonb('options')
      .notNull()
      .default(sql`'[]'::jsonb`),
    answerKey: jsonb('answer_key').notNull(),
    /** Markdown, shown with the correct answer once review opens. */
    explanation: text('explanation').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('quiz_questions_quiz_idx').on(t.quizId, t.position)],
);

/** A quiz given to a course, with that course's window, time limit and review dates. */
export const quizCourses = pgTable(
  'quiz_courses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    quizId: integer('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    /** Minutes from the student's start; null: only the closing time limits them. */
    timeLimitMinutes: integer('time_limit_minutes'),
    /** From this moment a student who submitted sees their score; null: not until an editor sets it. */
    scoresVisibleAt: timestamp('scores_visible_at', { withTimezone: true }),
    /** From this moment they also see the correct answers and explanations; null: not until set. */
    answersVisibleAt: timestamp('answers_visible_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('quiz_courses_quiz_course_key').on(t.quizId, t.courseId),
    index('quiz_courses_course_idx').on(t.courseId, t.opensAt),
  ],
);

/**
 * A student's attempt: created when they start (the time limit counts from `started_at`), submitted
 * once. (quiz course, user) is unique and `submitted_at` is set by one conditional update, so two
 * submissions sent at the same moment give exactly one accepted.
 */
export const quizSubmissions = pgTable(
  'quiz_submissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    quizCourseId: integer('quiz_course_id')
      .notNull()
      .references(() => quizCourses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    score: integer('score'),
    maxScore: integer('max_score'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('quiz_submissions_quiz_course_user_key').on(t.quizCourseId, t.userId),
    index('quiz_submissions_user_idx').on(t.userId),
  ],
);

/** One answer of a submission, scored when it is stored. */
export const quizAnswers = pgTable(
  'quiz_answers',
  {
    submissionId: integer('submission_id')
      .notNull()
      .references(() => quizSubmissions.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => quizQuestions.id, { onDelete: 'cascade' }),
    /** The student's answer; its shape depends on the question's kind (contracts/quizzes.ts). */
    answer: jsonb('answer').notNull(),
    isCorrect: boolean('is_correct').notNull(),
    points: integer('points').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.questionId] }),
    index('quiz_answers_question_idx').on(t.questionId),
  ],
);
