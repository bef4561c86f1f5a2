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
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/** bytea as a Node Buffer (drizzle 0.45 has no bytea column of its own). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stored lower-cased; the unique index makes e-mail case-insensitive even for old rows. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** argon2id PHC string; null until the user sets a password through a set-password link. */
    passwordHash: text('password_hash'),
    isStaff: boolean('is_staff').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{no_role}'::text[]`),
    displayLang: text('display_lang').notNull().default('ja'),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** Changes whenever the password does, so set-password links die with the old password. */
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

/** One sign-in on one device: a family of refresh tokens. Revoking it ends its access tokens at once. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_idx').on(t.sessionId),
  ],
);

/** Failed sign-ins per account and per address within a fixed window. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});

export const courses = pgTable(
  'courses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    hasVideos: boolean('has_videos').notNull().default(false),
    hasAssessment: boolean('has_assessment').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('courses_title_idx').on(t.title)],
);

const membership = (name: string) =>
  pgTable(
    name,
    {
      courseId: integer('course_id')
        .notNull()
        .references(() => courses.id, { onDelete: 'cascade' }),
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      createdAt: createdAt(),
    },
    (t) => [primaryKey({ columns: [t.courseId, t.userId] }), index(`${name}_user_idx`).on(t.userId)],
  );

export const courseEditors = membership('course_editors');
export const courseStudents = membership('course_students');

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
    kind: text('kind', { enum: ['io', 'script'] }).notNull(),
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
    timeLimitMs: integer('time_limit_ms').notNull().default(2000),
    memoryLimitMb: integer('memory_limit_mb').notNull().default(256),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_cases_assignment_idx').on(t.assignmentId, t.position)],
);

export const SUBMISSION_STATUSES = [
  'Pending',
  'Scheduled',
  'Executing',
  'Completed',
  'Canceled',
  'InternalError',
  'InvalidFormat',
] as const;

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
    /** Why it is Wrong: wrong_answer, runtime_error, time_limit, memory_limit, output_limit, file_size, checker_error. */
    reason: text('reason'),
    timeMs: integer('time_ms'),
    memoryKb: integer('memory_kb'),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    /** Capped program output, and the checker's message for script tests. */
    stdout: text('stdout').notNull().default(''),
    stderr: text('stderr').notNull().default(''),
    checkerMessage: text('checker_message').notNull().default(''),
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

/** Grader processes announce themselves here (heartbeat) for the PyGrade console. */
export const graderHosts = pgTable('grader_hosts', {
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  sandboxOk: boolean('sandbox_ok').notNull(),
  sandboxDetail: text('sandbox_detail').notNull(),
  concurrency: integer('concurrency').notNull(),
  running: integer('running').notNull().default(0),
  graded: integer('graded').notNull().default(0),
});

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

/* ─── Calendar (issue 4) ─────────────────────────────────────────────────────────────────────── */

export const EVENT_KINDS = ['lecture', 'exam', 'office_hours', 'deadline', 'other'] as const;

/** An event an editor puts on a course's calendar. Assignment and quiz dates are not stored here. */
export const events = pgTable(
  'events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: EVENT_KINDS }).notNull().default('other'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    allDay: boolean('all_day').notNull().default(false),
    location: text('location').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_course_starts_idx').on(t.courseId, t.startsAt)],
);

/**
 * A user's private calendar feed. The URL's token is derived from the user id, this version and the
 * server secret (HMAC), so it is never stored; resetting bumps the version and kills the old URL.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: integer('version').notNull().default(1),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull().defaultNow(),
});

/* ─── Forum (issue 5; docs/forum.md) ─────────────────────────────────────────────────────────── */

/** PostgreSQL's tsvector, filled by the forum's own tokenizer (English words, Japanese bigrams). */
const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });

/**
 * A topic (`parent_id` null: a discussion or an announcement) or a comment on one. A topic is visible to
 * students once `published_at` is set: at creation, or at `scheduled_at` by the finalize job.
 */
export const forumRecords = pgTable(
  'forum_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => forumRecords.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    content: text('content').notNull(),
    isAnnouncement: boolean('is_announcement').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    upvotes: integer('upvotes').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    // The list: published topics of a course, pinned first, newest first (keyset pages walk it).
    index('forum_records_list_idx')
      .on(t.courseId, t.pinned.desc(), t.createdAt.desc(), t.id.desc())
      .where(sql`${t.parentId} IS NULL AND ${t.publishedAt} IS NOT NULL`),
    index('forum_records_announcements_idx')
      .on(t.courseId, t.pinned.desc(), t.createdAt.desc(), t.id.desc())
      .where(sql`${t.parentId} IS NULL AND ${t.publishedAt} IS NOT NULL AND ${t.isAnnouncement}`),
    index('forum_records_scheduled_idx')
      .on(t.scheduledAt)
      .where(sql`${t.publishedAt} IS NULL`),
    index('forum_records_parent_idx').on(t.parentId, t.createdAt, t.id),
    index('forum_records_author_idx').on(t.authorId, t.courseId),
    index('forum_records_updated_by_idx').on(t.updatedBy, t.courseId),
    index('forum_records_search_idx').using('gin', t.searchVector),
  ],
);

/** Published topic counts per course, kept in the transaction that changes them (cheap list counts). */
export const forumCourseStats = pgTable('forum_course_stats', {
  courseId: integer('course_id')
    .primaryKey()
    .references(() => courses.id, { onDelete: 'cascade' }),
  topics: integer('topics').notNull().default(0),
  announcements: integer('announcements').notNull().default(0),
});

/** A topic the user has read (no row: unread). `course_id` makes "how many have I read here" one range. */
export const forumReads = pgTable(
  'forum_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recordId: integer('record_id')
      .notNull()
      .references(() => forumRecords.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.recordId, t.userId] }),
    index('forum_reads_user_course_idx').on(t.userId, t.courseId),
  ],
);

export const forumUpvotes = pgTable(
  'forum_upvotes',
  {
    recordId: integer('record_id')
      .notNull()
      .references(() => forumRecords.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.recordId, t.userId] }), index('forum_upvotes_user_idx').on(t.userId)],
);

/** A file uploaded from the post editor: in the uploader's tray (`record_id` null) until a post takes it. */
export const forumFiles = pgTable(
  'forum_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    recordId: integer('record_id').references(() => forumRecords.id, { onDelete: 'cascade' }),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('forum_files_record_idx').on(t.recordId),
    index('forum_files_tray_idx')
      .on(t.uploadedBy, t.courseId)
      .where(sql`${t.recordId} IS NULL`),
  ],
);
