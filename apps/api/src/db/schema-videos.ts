import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { courses, createdAt, users } from './schema.ts';

/* ─── Lecture videos (issue 6; docs/videos.md) ───────────────────────────────────────────────── */

export const VIDEO_PLATFORM_VALUES = ['vimeo', 'youtube', 'file'] as const;

/**
 * A course's video: on a hosting platform (`external_id` is the platform's own id) or a file uploaded to
 * the course (`external_id` is a random id of ours, the bytes in storage).
 */
export const videos = pgTable(
  'videos',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: VIDEO_PLATFORM_VALUES }).notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    durationSeconds: integer('duration_seconds').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    position: integer('position').notNull().default(0),
    /** Hidden by an editor: students do not see it. */
    hidden: boolean('hidden').notNull().default(false),
    /** No longer in the course's Vimeo folder at the last sync: students do not see it; stats are kept. */
    missingFromSource: boolean('missing_from_source').notNull().default(false),
    /** An uploaded file (platform `file`): where its bytes are, its size and type. */
    storageKey: text('storage_key'),
    fileSize: bigint('file_size', { mode: 'number' }),
    contentType: text('content_type'),
    /** Vimeo's `modified_time` at the last sync: an unchanged video is not rewritten. */
    sourceModifiedAt: timestamp('source_modified_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_course_platform_external_key').on(t.courseId, t.platform, t.externalId),
    index('videos_course_position_idx').on(t.courseId, t.position, t.id),
  ],
);

/** Per course: the completion threshold and the Vimeo folder or showcase a sync reads. */
export const videoSettings = pgTable('video_settings', {
  courseId: integer('course_id')
    .primaryKey()
    .references(() => courses.id, { onDelete: 'cascade' }),
  completionPercent: integer('completion_percent').notNull().default(90),
  vimeoSourceKind: text('vimeo_source_kind', { enum: ['folder', 'showcase'] }),
  vimeoSourceId: text('vimeo_source_id'),
});

/** One sync of a course with Vimeo, as the job ran it. */
export const videoSyncs = pgTable(
  'video_syncs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    missing: integer('missing').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('video_syncs_course_idx').on(t.courseId, t.id),
    // At most one sync of a course waits or runs at a time.
    uniqueIndex('video_syncs_one_active_key')
      .on(t.courseId)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * What one user has watched of one video: the played intervals, merged (sorted, disjoint), and the
 * figures derived from them. `updated_at` is when they last watched.
 */
export const videoStats = pgTable(
  'video_stats',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    intervals: jsonb('intervals').$type<[number, number][]>().notNull().default([]),
    watchedSeconds: doublePrecision('watched_seconds').notNull().default(0),
    lastPosition: doublePrecision('last_position').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('video_stats_user_video_key').on(t.userId, t.videoId),
    index('video_stats_video_idx').on(t.videoId),
    index('video_stats_course_user_idx').on(t.courseId, t.userId),
  ],
);
