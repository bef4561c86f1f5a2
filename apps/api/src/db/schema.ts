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
  uuid,
} from 'drizzle-orm/pg-core';

/** The `created_at` column every table has; exported for the other schema files. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stored lower-cased; the unique index makes e-mail case-insensitive even for old rows. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** The name in Japanese script, as an institution's IdP gives it (GakuNin jaGivenName, jasn). */
    firstNameJa: text('first_name_ja').notNull().default(''),
    lastNameJa: text('last_name_ja').notNull().default(''),
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
    /** Set when the owner proved the address: a verification link, or a provider's verified e-mail. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The few staff, read without walking every user (the course home: who answers a question).
    index('users_staff_idx')
      .on(t.id)
      .where(sql`is_staff`),
  ],
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
    /** Its editors get a notification when a member joins (off by default: docs/notifications.md). */
    notifyEditorsOfMembers: boolean('notify_editors_of_members').notNull().default(false),
    /** An IANA zone; null follows the server's DEFAULT_TIME_ZONE, so changing that moves these courses too. */
    timeZone: text('time_zone'),
    /** Its rows of course_students and course_editors: kept by a trigger (migration 0016), cascades included. */
    studentCount: integer('student_count').notNull().default(0),
    editorCount: integer('editor_count').notNull().default(0),
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
