import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { videoSettings, videoSyncs, videos } from '../../db/schema-videos.ts';

export type VideoRow = typeof videos.$inferSelect;
export type NewVideoRow = typeof videos.$inferInsert;
export type VideoSettingsRow = typeof videoSettings.$inferSelect;
export type VideoSyncRow = typeof videoSyncs.$inferSelect;

/** Students see a video unless an editor hid it or it left the Vimeo folder. */
export const visibleToStudents = and(eq(videos.hidden, false), eq(videos.missingFromSource, false));

export async function listVideos(
  db: Executor,
  courseId: number,
  options: { name?: string; studentView: boolean; limit: number },
): Promise<{ count: number; rows: VideoRow[] }> {
  const where = and(
    eq(videos.courseId, courseId),
    options.studentView ? visibleToStudents : undefined,
    options.name ? ilike(videos.name, `%${escapeLike(options.name)}%`) : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db.select().from(videos).where(where).orderBy(asc(videos.position), asc(videos.id)).limit(options.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(videos)
      .where(where),
  ]);
  return { count: counted?.n ?? 0, rows };
}

export async function findVideo(db: Executor, id: number): Promise<VideoRow | null> {
  const [row] = await db.select().from(videos).where(eq(videos.id, id)).limit(1);
  return row ?? null;
}

export async function countVideos(db: Executor, courseId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(videos)
    .where(eq(videos.courseId, courseId));
  return row?.n ?? 0;
}

export async function nextPosition(db: Executor, courseId: number): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${videos.position}) + 1, 0)::int` })
    .from(videos)
    .where(eq(videos.courseId, courseId));
  return row?.next ?? 0;
}

/** Null when the course already has this video (the unique key). */
export async function insertVideo(db: Executor, row: NewVideoRow): Promise<VideoRow | null> {
  const [inserted] = await db.insert(videos).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function updateVideo(
  db: Executor,
  id: number,
  fields: Partial<
    Pick<
      NewVideoRow,
      | 'name'
      | 'description'
      | 'durationSeconds'
      | 'position'
      | 'hidden'
      | 'thumbnailUrl'
      | 'missingFromSource'
      | 'sourceModifiedAt'
    >
  >,
): Promise<VideoRow | null> {
  const [row] = await db
    .update(videos)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(videos.id, id))
    .returning();
  return row ?? null;
}

export async function deleteVideo(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(videos).where(eq(videos.id, id)).returning({ id: videos.id });
  return rows.length > 0;
}

/** The course's Vimeo videos, for a sync to compare with what Vimeo lists. */
export async function vimeoVideosOf(db: Executor, courseId: number): Promise<VideoRow[]> {
  return db
    .select()
    .from(videos)
    .where(and(eq(videos.courseId, courseId), eq(videos.platform, 'vimeo')));
}

export async function markMissing(db: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(videos)
    .set({ missingFromSource: true, updatedAt: sql`now()` })
    .where(inArray(videos.id, ids));
}

/* ─── Settings ──────────────────────────────────────────────────────────────────────────────── */

export async function findSettings(db: Executor, courseId: number): Promise<VideoSettingsRow | null> {
  const [row] = await db.select().from(videoSettings).where(eq(videoSettings.courseId, courseId)).limit(1);
  return row ?? null;
}

export async function upsertSettings(
  db: Executor,
  courseId: number,
  fields: Partial<Omit<VideoSettingsRow, 'courseId'>>,
): Promise<VideoSettingsRow> {
  const [row] = await db
    .insert(videoSettings)
    .values({ courseId, ...fields })
    .onConflictDoUpdate({ target: videoSettings.courseId, set: fields })
    .returning();
  return row!;
}

/* ─── Syncs ─────────────────────────────────────────────────────────────────────────────────── */

/** A new queued sync, or null when one of the course is already queued or running. */
export async function insertSync(
  db: Executor,
  courseId: number,
  requestedBy: number,
): Promise<VideoSyncRow | null> {
  const [row] = await db
    .insert(videoSyncs)
    .values({ courseId, requestedBy })
    .onConflictDoNothing({
      target: videoSyncs.courseId,
      where: sql`status in ('queued', 'running')`,
    })
    .returning();
  return row ?? null;
}

export async function latestSync(db: Executor, courseId: number): Promise<VideoSyncRow | null> {
  const [row] = await db
    .select()
    .from(videoSyncs)
    .where(eq(videoSyncs.courseId, courseId))
    .orderBy(desc(videoSyncs.id))
    .limit(1);
  return row ?? null;
}

/** A sync `running` for longer than this was left by a process that died: a retried job takes it over. */
export const STALE_SYNC_SECONDS = 600;

/** Claims a sync for running; null when it finished or another run has it (a job delivered twice). */
export async function startSync(db: Executor, id: number): Promise<VideoSyncRow | null> {
  const [row] = await db
    .update(videoSyncs)
    .set({ status: 'running', startedAt: sql`now()` })
    .where(
      and(
        eq(videoSyncs.id, id),
        sql`(${videoSyncs.status} = 'queued' or (${videoSyncs.status} = 'running' and ${videoSyncs.startedAt} < now() - make_interval(secs => ${STALE_SYNC_SECONDS})))`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function finishSync(
  db: Executor,
  id: number,
  outcome:
    | { status: 'succeeded'; added: number; updated: number; unchanged: number; missing: number }
    | { status: 'failed'; error: string },
): Promise<VideoSyncRow | null> {
  const [row] = await db
    .update(videoSyncs)
    .set({ ...outcome, finishedAt: sql`now()` })
    .where(eq(videoSyncs.id, id))
    .returning();
  return row ?? null;
}
