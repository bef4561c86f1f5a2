import { MAX_VIDEOS_PER_COURSE, type VideoSync, type VideoSyncStatus } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { fetchVimeoVideos, VimeoError, type VimeoVideo } from './vimeo.client.ts';
import { requireVideoManager } from './videos.service.ts';
import * as repo from './videos.repo.ts';

/*
 * Sync with Vimeo (docs/videos.md, "Sync"): `PUT vimeo-videos/sync` queues a job and answers at once
 * (202); the page polls `GET vimeo-videos/sync` until the job has succeeded or failed. One sync of a
 * course waits or runs at a time (a second request gets the first). The job adds new videos, updates
 * changed ones, marks those gone from the folder (statistics kept) and never deletes a thing.
 */

export const VIDEO_SYNC_QUEUE = 'video-sync';

export function toVideoSync(row: repo.VideoSyncRow): VideoSync {
  return {
    id: row.id,
    course: row.courseId,
    status: row.status,
    added: row.added,
    updated: row.updated,
    unchanged: row.unchanged,
    missing: row.missing,
    error: row.error,
    requested_by: row.requestedBy,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export async function requestSync(ctx: AppContext, actor: Actor, courseId: number): Promise<VideoSync> {
  await requireVideoManager(ctx.db, actor, courseId);
  if (!ctx.config.VIMEO_ACCESS_TOKEN) {
    throw conflict(
      'Vimeo is not configured on this server: set VIMEO_ACCESS_TOKEN to sync videos.',
      'vimeo_not_configured',
    );
  }
  const settings = await repo.findSettings(ctx.db, courseId);
  if (!settings?.vimeoSourceKind || !settings.vimeoSourceId) {
    throw conflict('Choose the Vimeo folder or showcase of the course first.', 'no_vimeo_source');
  }
  const row = await repo.insertSync(ctx.db, courseId, actor.userId);
  if (!row) {
    // One is already waiting or running: that one is the answer.
    const active = await repo.latestSync(ctx.db, courseId);
    return toVideoSync(active!);
  }
  try {
    await ctx.jobs.send(VIDEO_SYNC_QUEUE, { syncId: row.id }, { singletonKey: `video-sync:${row.id}` });
  } catch (error) {
    ctx.log.error({ err: error, syncId: row.id }, 'videos: could not queue the sync job');
    const failed = await repo.finishSync(ctx.db, row.id, {
      status: 'failed',
      error: 'The background job queue is not running; try again later.',
    });
    return toVideoSync(failed!);
  }
  return toVideoSync(row);
}

export async function getSyncStatus(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<VideoSyncStatus> {
  await requireVideoManager(ctx.db, actor, courseId);
  const row = await repo.latestSync(ctx.db, courseId);
  return { sync: row ? toVideoSync(row) : null };
}

interface Counts {
  added: number;
  updated: number;
  unchanged: number;
  missing: number;
}

const changed = (row: repo.VideoRow, video: VimeoVideo) =>
  row.name !== video.name ||
  row.description !== video.description ||
  row.durationSeconds !== video.duration ||
  row.thumbnailUrl !== video.thumbnailUrl ||
  row.missingFromSource ||
  (row.sourceModifiedAt?.getTime() ?? null) !== (video.modifiedAt?.getTime() ?? null);

/** Writes what Vimeo listed into the course, in one transaction. */
async function applyVimeoList(ctx: AppContext, courseId: number, listed: VimeoVideo[]): Promise<Counts> {
  return ctx.db.transaction(async (tx) => {
    const existing = new Map((await repo.vimeoVideosOf(tx, courseId)).map((row) => [row.externalId, row]));
    let total = await repo.countVideos(tx, courseId);
    let position = await repo.nextPosition(tx, courseId);
    const counts: Counts = { added: 0, updated: 0, unchanged: 0, missing: 0 };
    for (const video of listed) {
      const row = existing.get(video.externalId);
      existing.delete(video.externalId);
      if (!row) {
        if (total >= MAX_VIDEOS_PER_COURSE) continue;
        await repo.insertVideo(tx, {
          courseId,
          platform: 'vimeo',
          externalId: video.externalId,
          name: video.name,
          description: video.description,
          durationSeconds: video.duration,
          thumbnailUrl: video.thumbnailUrl,
          sourceModifiedAt: video.modifiedAt,
          position: position++,
        });
        total++;
        counts.added++;
      } else if (changed(row, video)) {
        await repo.updateVideo(tx, row.id, {
          name: video.name,
          description: video.description,
          durationSeconds: video.duration,
          thumbnailUrl: video.thumbnailUrl,
          sourceModifiedAt: video.modifiedAt,
          missingFromSource: false,
        });
        counts.updated++;
      } else {
        counts.unchanged++;
      }
    }
    const gone = [...existing.values()].filter((row) => !row.missingFromSource).map((row) => row.id);
    await repo.markMissing(tx, gone);
    counts.missing = gone.length;
    return counts;
  });
}

/**
 * The job: runs one sync. A sync already finished (a job delivered twice) is left alone; one left
 * `running` by a process that died is run again. Vimeo's failures end the sync as failed with the reason;
 * other errors do too, and are logged.
 */
export async function runSync(ctx: AppContext, syncId: number): Promise<VideoSync | null> {
  const sync = await repo.startSync(ctx.db, syncId);
  if (!sync) return null;
  let outcome: Parameters<typeof repo.finishSync>[2];
  try {
    const token = ctx.config.VIMEO_ACCESS_TOKEN;
    const settings = await repo.findSettings(ctx.db, sync.courseId);
    if (!token) throw new VimeoError('Vimeo is not configured on this server (VIMEO_ACCESS_TOKEN).');
    if (!settings?.vimeoSourceKind || !settings.vimeoSourceId) {
      throw new VimeoError('The course has no Vimeo folder or showcase.');
    }
    const listed = await fetchVimeoVideos(
      { apiUrl: ctx.config.VIMEO_API_URL, token, maxVideos: MAX_VIDEOS_PER_COURSE },
      { kind: settings.vimeoSourceKind, id: settings.vimeoSourceId },
    );
    outcome = { status: 'succeeded', ...(await applyVimeoList(ctx, sync.courseId, listed)) };
  } catch (error) {
    if (!(error instanceof VimeoError)) ctx.log.error({ err: error, syncId }, 'videos: sync failed');
    outcome = {
      status: 'failed',
      error: error instanceof VimeoError ? error.message : 'The sync stopped on an unexpected error.',
    };
  }
  const finished = await repo.finishSync(ctx.db, syncId, outcome);
  return finished ? toVideoSync(finished) : null;
}

/** Started once per API process from main.ts. `onFinished` lets tests see each run. */
export async function startVideoJobs(
  ctx: AppContext,
  options: { onFinished?: (sync: VideoSync | null) => void } = {},
): Promise<void> {
  await ctx.jobs.work<{ syncId: number }>(VIDEO_SYNC_QUEUE, async (jobs) => {
    for (const job of jobs) {
      // Run first: `onFinished?.(await …)` would skip the run itself when no listener is given.
      const finished = await runSync(ctx, job.data.syncId);
      options.onFinished?.(finished);
    }
  });
}
