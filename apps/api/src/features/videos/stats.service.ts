import {
  DEFAULT_COMPLETION_PERCENT,
  MAX_PLAYBACK_RATE,
  MAX_STORED_INTERVALS,
  MAX_VIDEOS_PER_COURSE,
  REPORT_SLACK_SECONDS,
  type VideoStat,
  type VideoStatCreate,
  type VideoStatList,
  type VideoStatListQuery,
  type VideoStatReport,
  type VideoTable,
  type VideoTableQuery,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { toCsv, type CsvCell } from '../submissions/csv-format.ts';
import { applyReport } from './intervals.ts';
import { findVisibleVideo, requireVideoManager, toVideo } from './videos.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import * as stats from './stats.repo.ts';
import * as repo from './videos.repo.ts';

/*
 * Watch statistics (docs/videos.md, "Honest statistics"). A viewer reports the intervals their player
 * played; the server merges them into what it stored, counting at most what could have been played since
 * their previous report. Viewers read their own figures; editors of the course and staff read everyone's
 * and the course table. Nobody can write someone else's.
 */

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

async function completionPercent(ctx: AppContext, courseId: number): Promise<number> {
  return (await repo.findSettings(ctx.db, courseId))?.completionPercent ?? DEFAULT_COMPLETION_PERCENT;
}

export function toVideoStat(row: stats.StatWithVideo, percent: number): VideoStat {
  const progress = Math.min(1, row.watchedSeconds / row.durationSeconds);
  return {
    id: row.id,
    user: row.userId,
    video: row.videoId,
    course: row.courseId,
    intervals: row.intervals,
    watched_seconds: row.watchedSeconds,
    duration: row.durationSeconds,
    progress: round(progress),
    completed: progress * 100 >= percent,
    completed_at: row.completedAt?.toISOString() ?? null,
    last_position: row.lastPosition,
    last_watched_at: row.updatedAt.toISOString(),
  };
}

async function record(
  ctx: AppContext,
  actor: Actor,
  videoId: number,
  report: VideoStatReport,
): Promise<{ stat: VideoStat; created: boolean }> {
  const { video } = await findVisibleVideo(ctx.db, actor, videoId);
  const percent = await completionPercent(ctx, video.courseId);
  const duration = video.durationSeconds;
  const saved = await ctx.db.transaction(async (tx) => {
    const { row, created } = await stats.lockStat(tx, {
      userId: actor.userId,
      videoId: video.id,
      courseId: video.courseId,
    });
    const sinceLast = created ? 0 : Math.max(0, (Date.now() - row.updatedAt.getTime()) / 1000);
    const outcome = applyReport(row.intervals, report.intervals, {
      duration,
      budgetSeconds: sinceLast * MAX_PLAYBACK_RATE + REPORT_SLACK_SECONDS,
      maxStored: MAX_STORED_INTERVALS,
    });
    const reachedNow = outcome.watchedSeconds * 100 >= duration * percent;
    const next = await stats.saveStat(tx, row.id, {
      intervals: outcome.intervals,
      watchedSeconds: outcome.watchedSeconds,
      lastPosition: Math.min(report.position ?? row.lastPosition, duration),
      completedAt: row.completedAt ?? (reachedNow ? new Date() : null),
    });
    return { row: next, created };
  });
  return { stat: toVideoStat({ ...saved.row, durationSeconds: duration }, percent), created: saved.created };
}

/** `POST video-stats/`: the caller's report on a video (201 for their first, 200 after). */
export async function reportWatch(ctx: AppContext, actor: Actor, input: VideoStatCreate) {
  return record(ctx, actor, input.video, input);
}

/** The stat if the caller may read it: its viewer, editors of its course, staff. */
async function readableStat(ctx: AppContext, actor: Actor, id: number) {
  const row = await stats.findStat(ctx.db, id);
  if (!row) throw notFound();
  if (row.userId !== actor.userId) {
    const role = await getCourseRole(ctx.db, actor, row.courseId);
    if (!canManageCourse(role)) throw notFound();
  }
  return row;
}

export async function getStat(ctx: AppContext, actor: Actor, id: number): Promise<VideoStat> {
  const row = await readableStat(ctx, actor, id);
  return toVideoStat(row, await completionPercent(ctx, row.courseId));
}

/** `PUT`/`PATCH video-stats/{id}/`: a further report by its viewer; others may not write it. */
export async function reportOnStat(
  ctx: AppContext,
  actor: Actor,
  id: number,
  report: VideoStatReport,
): Promise<VideoStat> {
  const row = await readableStat(ctx, actor, id);
  if (row.userId !== actor.userId) throw forbidden('Only the viewer reports what they watched.');
  return (await record(ctx, actor, row.videoId, report)).stat;
}

export async function listStats(
  ctx: AppContext,
  actor: Actor,
  query: VideoStatListQuery,
): Promise<VideoStatList> {
  const filter: stats.StatFilter = { user: query.user, video: query.video, course: query.course };
  if (!actor.isStaff) {
    // Editors read the stats of a course they edit (asked by course or video); everyone reads their own.
    const courseId =
      query.course ??
      (query.video === undefined ? undefined : (await repo.findVideo(ctx.db, query.video))?.courseId);
    const manages =
      courseId !== undefined &&
      (await getCourseRole(ctx.db, actor, courseId).then(canManageCourse, () => false));
    if (manages) filter.editorId = actor.userId;
    else if (query.user !== undefined && query.user !== actor.userId) throw notFound();
    else filter.ownerId = actor.userId;
  }
  const { count, rows } = await stats.listStats(ctx.db, filter, query);
  const percents = new Map<number, number>();
  for (const courseId of new Set(rows.map((r) => r.courseId))) {
    percents.set(courseId, await completionPercent(ctx, courseId));
  }
  return {
    count,
    limit: query.limit,
    offset: query.offset,
    results: rows.map((row) => toVideoStat(row, percents.get(row.courseId)!)),
  };
}

/* ─── The course table and its CSV ──────────────────────────────────────────────────────────── */

async function tableFrame(ctx: AppContext, actor: Actor, courseId: number) {
  await requireVideoManager(ctx.db, actor, courseId);
  const [{ rows: videoRows }, percent] = await Promise.all([
    repo.listVideos(ctx.db, courseId, { studentView: true, limit: MAX_VIDEOS_PER_COURSE }),
    completionPercent(ctx, courseId),
  ]);
  return { videoRows, percent, videoIds: videoRows.map((v) => v.id) };
}

function cellsByStudent(
  cells: stats.TableCell[],
  videoRows: repo.VideoRow[],
  percent: number,
): Map<number, Map<number, { progress: number; completed: boolean; last: Date }>> {
  const duration = new Map(videoRows.map((v) => [v.id, v.durationSeconds]));
  const out = new Map<number, Map<number, { progress: number; completed: boolean; last: Date }>>();
  for (const cell of cells) {
    const progress = Math.min(1, cell.watchedSeconds / duration.get(cell.videoId)!);
    let row = out.get(cell.userId);
    if (!row) out.set(cell.userId, (row = new Map()));
    row.set(cell.videoId, {
      progress: round(progress),
      completed: progress * 100 >= percent,
      last: cell.updatedAt,
    });
  }
  return out;
}

export async function getTable(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  query: VideoTableQuery,
): Promise<VideoTable> {
  const { videoRows, percent, videoIds } = await tableFrame(ctx, actor, courseId);
  const { count, rows } = await stats.tableStudents(ctx.db, courseId, {
    videoIds,
    percent,
    search: query.search || undefined,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
  });
  const cells = cellsByStudent(
    await stats.tableCells(
      ctx.db,
      courseId,
      rows.map((r) => r.id),
      videoIds,
    ),
    videoRows,
    percent,
  );
  return {
    count,
    limit: query.limit,
    offset: query.offset,
    completion_percent: percent,
    videos: videoRows.map((v) => {
      const { id, name, duration, platform, video_id } = toVideo(v, ctx.config);
      return { id, name, duration, platform, video_id };
    }),
    results: rows.map((s) => ({
      user: { id: s.id, email: s.email, first_name: s.firstName, last_name: s.lastName },
      completed: s.completed,
      last_watched_at: s.lastWatchedAt?.toISOString() ?? null,
      cells: videoIds.map((videoId) => {
        const cell = cells.get(s.id)?.get(videoId);
        return cell
          ? { progress: cell.progress, completed: cell.completed, last_watched_at: cell.last.toISOString() }
          : null;
      }),
    })),
  };
}

export const VIDEO_CSV_HEADER = ['last_name', 'first_name', 'email', 'completed', 'last_watched_at'] as const;

/** Every student of the course, one column of percent watched per video (empty: never played). */
export async function exportTableCsv(ctx: AppContext, actor: Actor, courseId: number) {
  const { videoRows, percent, videoIds } = await tableFrame(ctx, actor, courseId);
  const { rows } = await stats.tableStudents(ctx.db, courseId, {
    videoIds,
    percent,
    ordering: 'name',
    limit: null,
    offset: 0,
  });
  const cells = cellsByStudent(
    await stats.tableCells(
      ctx.db,
      courseId,
      rows.map((r) => r.id),
      videoIds,
    ),
    videoRows,
    percent,
  );
  const header = [...VIDEO_CSV_HEADER, ...videoRows.map((v) => `${v.name} (%)`)];
  const body = rows.map((s): CsvCell[] => [
    s.lastName,
    s.firstName,
    s.email,
    s.completed,
    s.lastWatchedAt?.toISOString() ?? null,
    ...videoIds.map((videoId) => {
      const cell = cells.get(s.id)?.get(videoId);
      return cell ? Math.round(cell.progress * 1000) / 10 : null;
    }),
  ]);
  return {
    body: toCsv(header, body),
    contentDisposition: contentDisposition(`course-${courseId}-video-stats.csv`),
  };
}
