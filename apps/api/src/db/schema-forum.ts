import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { courses, createdAt, users } from './schema.ts';

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

/**
 * How many forum_reads rows each user has in each course, kept by the trigger forum_reads_count
 * (migration 0005) on every insert and delete of forum_reads, cascades included: the unread badge
 * and every list page read one row instead of counting what the user has read.
 */
export const forumReaderStats = pgTable(
  'forum_reader_stats',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    reads: integer('reads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
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
