import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SUBMISSION_STATUSES, type PytestCheck } from '@kadai/contracts';
import { courses, createdAt, users } from './schema.ts';

/** bytea as a Node Buffer (drizzle 0.45 has no bytea column of its own). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** One collected test of a pytest evaluation, as stored (the contracts' EvaluationItemFull). */
export interface EvaluationItemRow {
  name: string;
  outcome: 'passed' | 'failed' | 'error' | 'skipped' | 'time_limit';
  points: number;
  max_points: number;
  message: string;
  output: string;
}

/**
 * A pytest module's check as stored (the contracts' PytestCheck): those saved before checks gave a
 * `reason` have none, and are read as null (`toTestCase`), so no migration rewrites them.
 */
export type StoredPytestCheck = Omit<PytestCheck, 'reason'> & { reason?: PytestCheck['reason'] };

/* ─── Assignments, test cases, submissions (issue 3) ─────────────────────────────────────────── */

/**
 * A programming assignment. It may be given to several courses (`assignment_courses`), each with its own
 * dates; the statement, starter code, attachments and test cases are shared by all of them.
 */
export const assignments = pgTable(
  'assignments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    /** Markdown, rendered safely by the web app. */
    statement: text('statement').notNull().default(''),
    starterCode: text('starter_code').notNull().default(''),
    /** The file the grader runs (`python3 -I <entry_file>`); code typed in the editor is saved under it. */
    entryFile: text('entry_file').notNull().default('main.py'),
    /** File names every submission must contain (besides the entry file). */
    requiredFiles: text('required_files')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Extensions (with the dot) a submitted file may have. */
    allowedExtensions: text('allowed_extensions')
      .array()
      .notNull()
      .default(sql`'{.py}'::text[]`),
    maxFiles: integer('max_files').notNull().default(5),
    maxFileBytes: integer('max_file_bytes')
      .notNull()
      .default(1024 * 1024),
    /** Python of an editor's model answer, graded like a submission to check the test cases. */
    referenceSolution: text('reference_solution').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assignments_created_by_idx').on(t.createdBy)],
);

/** An assignment given to a course, with that course's dates. */
export const assignmentCourses = pgTable(
  'assignment_courses',
  {
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** Students see the assignment from this moment. */
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** Submissions after `due_at` and until this moment are accepted and marked late; null: none late. */
    lateUntil: timestamp('late_until', { withTimezone: true }),
    leaderboardEnabled: boolean('leaderboard_enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.courseId] }),
    index('assignment_courses_course_idx').on(t.courseId, t.dueAt),
  ],
);

/** Files given to students with the assignment; also placed beside the program when tests run. */
export const assignmentFiles = pgTable(
  'assignment_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    /** Key in the `Storage` (never a path from the user). */
    storageKey: text('storage_key').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('assignment_files_name_key').on(t.assignmentId, t.filename)],
);

/**
 * One test of an assignment. `io`: stdin in, stdout compared (`exact`, `whitespace` or `numeric`).
 * `script`: the student's program (or `driver`, a snippet importing it) runs in one sandbox, then
 * `check_script` judges its output and files in a second sandbox the student's code never enters.
 */
export const testCases = pgTable(
  'test_cases',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['io', 'script', 'pytest'] }).notNull(),
    points: integer('points').notNull().default(1),
    visibility: text('visibility', { enum: ['visible', 'hidden', 'after_due'] })
      .notNull()
      .default('visible'),
    stdin: text('stdin').notNull().default(''),
    expectedStdout: text('expected_stdout').notNull().default(''),
    comparison: text('comparison', { enum: ['exact', 'whitespace', 'numeric'] })
      .notNull()
      .default('whitespace'),
    /** Absolute or relative tolerance for `numeric` comparison. */
    tolerance: doublePrecision('tolerance').notNull().default(1e-6),
    /** `script` tests: Python run instead of the entry file, in the student's sandbox (may import it). */
    driver: text('driver').notNull().default(''),
    /** `script` tests: the judge; exit 0 means correct. */
    checkScript: text('check_script').notNull().default(''),
    /** `pytest` tests: the test module, saved as `test_file_name` beside the student's files. */
    testFileName: text('test_file_name').notNull().default('test_main.py'),
    testCode: text('test_code').notNull().default(''),
    timeLimitMs: integer('time_limit_ms').notNull().default(2000),
    memoryLimitMb: integer('memory_limit_mb').notNull().default(256),
    /** `pytest` tests: the points follow the number of collected test shares until an editor sets them. */
    pointsAuto: boolean('points_auto').notNull().default(false),
    /**
     * A `pytest` module that does not collect (the check when it was saved): it is not part of the
     * assignment yet — never run, never counted, never shown to students — until a saved version does.
     */
    draft: boolean('draft').notNull().default(false),
    /** `pytest` tests: the last check of the module (PytestCheck of the contracts); null for other kinds. */
    pytestCheck: jsonb('pytest_check').$type<StoredPytestCheck>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_cases_assignment_idx').on(t.assignmentId, t.position)],
);

/**
 * A student's (or, with `is_reference`, an editor's model) answer. The row and its files are committed
 * before any grading job is queued; nothing that fails later deletes it.
 */
export const submissions = pgTable(
  'submissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('Pending'),
    /** Why it is InvalidFormat, InternalError or Canceled, or what the grader is waiting for. */
    message: text('message').notNull().default(''),
    score: integer('score'),
    maxScore: integer('max_score'),
    isFinal: boolean('is_final').notNull().default(false),
    isLate: boolean('is_late').notNull().default(false),
    /** An editor's run of the reference solution: never in lists, scores, leaderboards or CSV. */
    isReference: boolean('is_reference').notNull().default(false),
    /** Set when queued; orders the queue and tells a student their place in it. */
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    /** Each grading attempt writes a fresh token; only the attempt holding it may store results. */
    gradingToken: uuid('grading_token'),
    gradingAttempts: integer('grading_attempts').notNull().default(0),
    graderHost: text('grader_host'),
    createdAt: createdAt(),
  },
  (t) => [
    index('submissions_assignment_course_user_idx').on(t.assignmentId, t.courseId, t.userId, t.createdAt),
    index('submissions_course_created_idx').on(t.courseId, t.createdAt),
    index('submissions_user_idx').on(t.userId, t.createdAt),
    index('submissions_queue_idx')
      .on(t.queuedAt)
      .where(sql`status = 'Scheduled'`),
    uniqueIndex('submissions_one_final_key')
      .on(t.assignmentId, t.courseId, t.userId)
      .where(sql`is_final`),
    // The PyGrade console: jobs running now, and the latest graded ones.
    index('submissions_executing_idx')
      .on(t.startedAt)
      .where(sql`status = 'Executing'`),
    index('submissions_graded_idx')
      .on(t.gradedAt)
      .where(sql`graded_at IS NOT NULL`),
    // The course home (docs/course-home.md): submissions waiting or failed, per course and state…
    index('submissions_attention_idx')
      .on(t.courseId, t.status, t.createdAt)
      .where(
        sql`status IN ('Scheduled', 'Executing', 'InternalError', 'InvalidFormat') AND NOT is_reference`,
      ),
    // …and who handed in what, read from the index alone (reference runs are not in it).
    index('submissions_handed_in_idx')
      .on(t.assignmentId, t.courseId, t.userId)
      .where(sql`NOT is_reference`),
  ],
);

/** The files of a submission, kept in the database so they commit with the submission row. */
export const submissionFiles = pgTable(
  'submission_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    content: bytea('content').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('submission_files_name_key').on(t.submissionId, t.filename)],
);

export const EVALUATION_STATUSES = ['Correct', 'Wrong'] as const;

/** The result of one test case on one submission; (submission, test case) is unique, so graded once. */
export const evaluations = pgTable(
  'evaluations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    testCaseId: integer('test_case_id')
      .notNull()
      .references(() => testCases.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EVALUATION_STATUSES }).notNull(),
    points: integer('points').notNull().default(0),
    /** Why it is Wrong: wrong_answer, runtime_error, time_limit, memory_limit, output_limit, file_size, checker_error, collection_error. */
    reason: text('reason'),
    timeMs: integer('time_ms'),
    memoryKb: integer('memory_kb'),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    /** Capped program output, and the checker's message for script tests. */
    stdout: text('stdout').notNull().default(''),
    stderr: text('stderr').notNull().default(''),
    checkerMessage: text('checker_message').notNull().default(''),
    /** `pytest` tests: one entry per collected test (name, outcome, points, max_points, message, output). */
    items: jsonb('items').$type<EvaluationItemRow[]>().notNull().default([]),
    /** Set when an editor overrides the result by hand (`Submission/Score/`). */
    overriddenBy: integer('overridden_by').references(() => users.id, { onDelete: 'set null' }),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('evaluations_submission_test_key').on(t.submissionId, t.testCaseId),
    index('evaluations_test_case_idx').on(t.testCaseId),
  ],
);
