import { z } from 'zod';
import { Id, PageQuery, paginated, plainTextCheck, str, text } from './common.ts';
import { UserSummary } from './users.ts';

/* Lecture videos and their watch statistics (docs/videos.md explains the choices). */

export const VIDEO_PLATFORMS = ['vimeo', 'youtube', 'file'] as const;
export const VideoPlatform = z.enum(VIDEO_PLATFORMS);
export type VideoPlatform = z.infer<typeof VideoPlatform>;

/** A course lists at most this many videos (a sync stops adding past it). */
export const MAX_VIDEOS_PER_COURSE = 500;
/** One report of the player carries at most this many played intervals. */
export const MAX_INTERVALS_PER_REPORT = 100;
/** A viewer's merged intervals of one video; past it new intervals are not recorded. */
export const MAX_STORED_INTERVALS = 500;
/**
 * The fastest playback a player offers: a report may add at most this many seconds of video per second
 * since the viewer's previous report, plus REPORT_SLACK_SECONDS.
 */
export const MAX_PLAYBACK_RATE = 2;
export const REPORT_SLACK_SECONDS = 30;
export const DEFAULT_COMPLETION_PERCENT = 90;

/** Spec §8, word for word: the page's messages. */
export const VIDEO_MESSAGES = {
  synced: 'Video synced successfully',
  syncFailed: 'Failed to sync videos',
  syncWarning: 'The sync process may take a few minutes. Sure to proceed?',
} as const;

/** Vimeo ids are digits; YouTube ids are 11 characters of letters, digits, `-` and `_`; files ours. */
export const EXTERNAL_ID_PATTERNS: Record<VideoPlatform, RegExp> = {
  vimeo: /^\d{1,20}$/,
  youtube: /^[A-Za-z0-9_-]{11}$/,
  file: /^[A-Za-z0-9_-]{16}$/,
};
/** An uploaded lecture video: MP4, WebM or Ogg, at most this large (VIDEO_MAX_UPLOAD_MB on the server). */
export const VIDEO_FILE_TYPES = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
} as const;
export const DEFAULT_MAX_VIDEO_UPLOAD_MB = 500;

export const Video = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    platform: VideoPlatform,
    /** The id on the platform: the `{video_url}` of the page's address. */
    video_id: z.string(),
    name: z.string(),
    description: z.string(),
    duration: z.number().int().describe('Seconds'),
    thumbnail_url: z.string().nullable(),
    /** Uploaded files: a signed address to stream the file from (valid for the length of the video + 1 h). */
    stream_url: z.string().nullable(),
    position: z.number().int(),
    /** Hidden by an editor: shown to editors only. */
    hidden: z.boolean(),
    /** Gone from the course's Vimeo folder at the last sync: shown to editors only, statistics kept. */
    missing_from_source: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Video' });
export type Video = z.infer<typeof Video>;

export const VideoListQuery = z.object({
  course: Id,
  name: str().trim().normalize('NFC').max(200).optional(),
});
export type VideoListQuery = z.infer<typeof VideoListQuery>;

export const VideoSettings = z
  .object({
    /** A student has completed a video once they have watched this share of it. */
    completion_percent: z.number().int().min(1).max(100),
    vimeo_source: z
      .object({ kind: z.enum(['folder', 'showcase']), id: z.string() })
      .nullable()
      .describe('Where a sync reads the course’s videos from'),
    /** Whether the server has a Vimeo access token (a sync is possible at all). */
    vimeo_configured: z.boolean(),
  })
  .meta({ id: 'VideoSettings' });
export type VideoSettings = z.infer<typeof VideoSettings>;

/** The whole list of a course's videos, with the caller's permissions and the course's settings. */
export const VideoList = z.object({
  count: z.number().int(),
  can_manage: z.boolean(),
  settings: VideoSettings,
  /** Where each hosted platform's player is embedded from: `{url}{video_id}`. */
  players: z.object({ vimeo: z.string(), youtube: z.string() }),
  results: z.array(Video),
});
export type VideoList = z.infer<typeof VideoList>;

export const VideoName = z.object({ id: z.number().int(), name: z.string() });

const Name = text(200);
const Description = str().max(5000);

export const VideoCreate = z
  .strictObject({
    course: Id,
    /** Files come through `POST vimeo-videos/upload`. */
    platform: z.enum(['vimeo', 'youtube']),
    video_id: str().trim().normalize('NFC').min(1).max(20),
    name: Name,
    description: Description.default(''),
    duration: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600),
    thumbnail_url: z
      .url({ protocol: /^https$/ })
      .check(plainTextCheck)
      .max(1000)
      .nullable()
      .default(null),
    position: z.number().int().min(0).max(100_000).optional(),
  })
  .superRefine((value, ctx) => {
    if (!EXTERNAL_ID_PATTERNS[value.platform].test(value.video_id)) {
      ctx.addIssue({
        code: 'custom',
        path: ['video_id'],
        message:
          value.platform === 'vimeo'
            ? 'A Vimeo video id is a number (the digits at the end of its address).'
            : 'A YouTube video id is the 11 characters after "v=" in its address.',
      });
    }
  });
export type VideoCreate = z.infer<typeof VideoCreate>;

export const VideoUpdate = z.strictObject({
  name: Name.optional(),
  description: Description.optional(),
  duration: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  hidden: z.boolean().optional(),
});
export type VideoUpdate = z.infer<typeof VideoUpdate>;

export const VideoSettingsUpdate = z.strictObject({
  course: Id,
  completion_percent: z.number().int().min(1).max(100).optional(),
  vimeo_source: z
    .strictObject({
      kind: z.enum(['folder', 'showcase']),
      id: str()
        .trim()
        .regex(/^\d{1,20}$/, 'The id of a Vimeo folder or showcase is a number.'),
    })
    .nullable()
    .optional(),
});
export type VideoSettingsUpdate = z.infer<typeof VideoSettingsUpdate>;

/* ─── Sync with Vimeo ───────────────────────────────────────────────────────────────────────── */

export const VideoSyncRequest = z.strictObject({ course: Id });
export const VideoSyncQuery = z.object({ course: Id });

export const VideoSync = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    added: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    /** Videos no longer in the folder (kept with their statistics, no longer shown to students). */
    missing: z.number().int(),
    /** Why it failed, in English, for the page to show after 'Failed to sync videos'. */
    error: z.string().nullable(),
    requested_by: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'VideoSync' });
export type VideoSync = z.infer<typeof VideoSync>;
/** The course's latest sync, or null when it has never synced. */
export const VideoSyncStatus = z.object({ sync: VideoSync.nullable() });
export type VideoSyncStatus = z.infer<typeof VideoSyncStatus>;

/* ─── Watch statistics ──────────────────────────────────────────────────────────────────────── */

/** [start, end] in seconds of the video, end after start. */
export const WatchInterval = z
  .tuple([
    z
      .number()
      .min(0)
      .max(24 * 3600),
    z
      .number()
      .min(0)
      .max(24 * 3600),
  ])
  .refine(([start, end]) => end > start, 'An interval ends after it starts.');
export type WatchInterval = z.infer<typeof WatchInterval>;

const WatchReport = {
  /** What the player actually played since its last report; seeks are gaps, replays overlap. */
  intervals: z.array(WatchInterval).max(MAX_INTERVALS_PER_REPORT).default([]),
  /** Where the viewer is now (to resume there). */
  position: z
    .number()
    .min(0)
    .max(24 * 3600)
    .optional(),
};
export const VideoStatCreate = z.strictObject({ video: Id, ...WatchReport });
export type VideoStatCreate = z.infer<typeof VideoStatCreate>;
export const VideoStatReport = z.strictObject(WatchReport);
export type VideoStatReport = z.infer<typeof VideoStatReport>;

export const VideoStat = z
  .object({
    id: z.number().int(),
    user: z.number().int(),
    video: z.number().int(),
    course: z.number().int(),
    /** Merged: sorted, not overlapping. */
    intervals: z.array(z.tuple([z.number(), z.number()])),
    watched_seconds: z.number(),
    duration: z.number().int(),
    /** Distinct seconds watched ÷ duration, 0–1. */
    progress: z.number(),
    completed: z.boolean(),
    completed_at: z.iso.datetime().nullable(),
    last_position: z.number(),
    last_watched_at: z.iso.datetime(),
  })
  .meta({ id: 'VideoStat' });
export type VideoStat = z.infer<typeof VideoStat>;

export const VideoStatListQuery = PageQuery.extend({
  user: Id.optional(),
  video: Id.optional(),
  course: Id.optional(),
});
export type VideoStatListQuery = z.infer<typeof VideoStatListQuery>;
export const VideoStatList = paginated(VideoStat);
export type VideoStatList = z.infer<typeof VideoStatList>;

/* ─── The course table: students × videos ───────────────────────────────────────────────────── */

/** `name` is last name then first name then e-mail; `last` is when they last watched a video. */
export const VIDEO_TABLE_ORDERINGS = ['name', '-name', 'completed', '-completed', 'last', '-last'] as const;
export const VideoTableQuery = PageQuery.extend({
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(VIDEO_TABLE_ORDERINGS).default('name'),
});
export type VideoTableQuery = z.infer<typeof VideoTableQuery>;

export const VideoTableCell = z.object({
  progress: z.number(),
  completed: z.boolean(),
  last_watched_at: z.iso.datetime(),
});
export type VideoTableCell = z.infer<typeof VideoTableCell>;

export const VideoTableRow = z.object({
  user: UserSummary,
  completed: z.number().int(),
  last_watched_at: z.iso.datetime().nullable(),
  /** One cell per video of `videos`, in that order; null where the student never played it. */
  cells: z.array(VideoTableCell.nullable()),
});
export type VideoTableRow = z.infer<typeof VideoTableRow>;

export const VideoTable = z
  .object({
    count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    completion_percent: z.number().int(),
    videos: z.array(Video.pick({ id: true, name: true, duration: true, platform: true, video_id: true })),
    results: z.array(VideoTableRow),
  })
  .meta({ id: 'VideoTable' });
export type VideoTable = z.infer<typeof VideoTable>;

/** The text fields of `POST vimeo-videos/upload?course=` (multipart, before the file). */
export const VideoUploadQuery = z.object({ course: Id });
export const VideoUploadFields = z.object({
  name: text(200),
  duration: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600),
  description: str().max(5000).default(''),
});
