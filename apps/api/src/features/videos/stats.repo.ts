import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor, Tx } from '../../db/client.ts';
import { inIntArray } from '../../db/int-array.ts';
import { escapeLike } from '../../db/like.ts';
import { courseEditors, courseStudents, users } from '../../db/schema.ts';
import { videoStats, videos } from '../../db/schema-videos.ts';

export type VideoStatRow = typeof videoStats.$inferSelect;
export interface StatWithVideo extends VideoStatRow {
  durationSeconds: number;
}

const withDuration = { ...getTableColumns(videoStats), durationSeconds: videos.durationSeconds };

export async function findStat(db: Executor, id: number): Promise<StatWithVideo | null> {
  const [row] = await db
    .select(withDuration)
    .from(videoStats)
    .innerJoin(videos, eq(videos.id, videoStats.videoId))
    .where(eq(videoStats.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * The viewer's row of the video, created when missing and locked until the transaction ends, so two
 * reports of one viewer merge one after the other and neither is lost.
 */
export async function lockStat(
  tx: Tx,
  key: { userId: number; videoId: number; courseId: number },
): Promise<{ row: VideoStatRow; created: boolean }> {
  const [inserted] = await tx.insert(videoStats).values(key).onConflictDoNothing().returning();
  if (inserted) return { row: inserted, created: true };
  const [row] = await tx
    .select()
    .from(videoStats)
    .where(and(eq(videoStats.userId, key.userId), eq(videoStats.videoId, key.videoId)))
    .for('update')
    .limit(1);
  return { row: row!, created: false };
}

export async function saveStat(
  tx: Tx,
  id: number,
  fields: Pick<VideoStatRow, 'intervals' | 'watchedSeconds' | 'lastPosition' | 'completedAt'>,
): Promise<VideoStatRow> {
  const [row] = await tx
    .update(videoStats)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(videoStats.id, id))
    .returning();
  return row!;
}

export interface StatFilter {
  user?: number;
  video?: number;
  course?: number;
  /** Only the caller's own rows (a student). */
  ownerId?: number;
  /** Only rows of courses the caller edits; staff pass neither. */
  editorId?: number;
}

export async function listStats(
  db: Executor,
  filter: StatFilter,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: StatWithVideo[] }> {
  const conditions: (SQL | undefined)[] = [
    filter.user === undefined ? undefined : eq(videoStats.userId, filter.user),
    filter.video === undefined ? undefined : eq(videoStats.videoId, filter.video),
    filter.course === undefined ? undefined : eq(videoStats.courseId, filter.course),
  ];
  if (filter.ownerId !== undefined) conditions.push(eq(videoStats.userId, filter.ownerId));
  if (filter.editorId !== undefined) {
    conditions.push(
      sql`exists (select 1 from ${courseEditors} where ${courseEditors.courseId} = ${videoStats.courseId} and ${courseEditors.userId} = ${filter.editorId})`,
    );
  }
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select(withDuration)
      .from(videoStats)
      .innerJoin(videos, eq(videos.id, videoStats.videoId))
      .where(where)
      .orderBy(asc(videoStats.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(videoStats)
      .where(where),
  ]);
  return { count: counted?.n ?? 0, rows };
}

/* ─── The course table ──────────────────────────────────────────────────────────────────────── */

export interface TableStudent {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  completed: number;
  lastWatchedAt: Date | null;
}

export interface TableCell {
  userId: number;
  videoId: number;
  watchedSeconds: number;
  updatedAt: Date;
}

const TableStudentRows = z.object({
  rows: z.array(
    z.object({
      id: z.number(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      completed: z.number(),
      last_watched: z.coerce.date().nullable(),
      total: z.number(),
    }),
  ),
});

export type TableOrdering = 'name' | '-name' | 'completed' | '-completed' | 'last' | '-last';

/**
 * One page of the course's students with how many of `videoIds` they completed (watched at least
 * `percent` of) and when they last watched one of them; `limit` null takes them all (the CSV).
 */
export async function tableStudents(
  db: Executor,
  courseId: number,
  options: {
    videoIds: number[];
    percent: number;
    search?: string;
    ordering: TableOrdering;
    limit: number | null;
    offset: number;
  },
): Promise<{ count: number; rows: TableStudent[] }> {
  const like = options.search ? `%${escapeLike(options.search)}%` : null;
  const searchSql = like
    ? sql`and (u.email ilike ${like} or u.first_name ilike ${like} or u.last_name ilike ${like})`
    : sql``;
  const direction = options.ordering.startsWith('-') ? sql`desc` : sql`asc`;
  const key = options.ordering.replace('-', '');
  const orderSql =
    key === 'completed'
      ? sql`coalesce(s.completed, 0) ${direction}, u.last_name, u.first_name, u.email`
      : key === 'last'
        ? sql`s.last_watched ${direction} nulls last, u.last_name, u.first_name, u.email`
        : sql`u.last_name ${direction}, u.first_name ${direction}, u.email ${direction}`;
  const limitSql = options.limit === null ? sql`` : sql`limit ${options.limit} offset ${options.offset}`;
  const result = await db.execute(sql`
    with s as (
      select st.user_id,
             count(*) filter (where st.watched_seconds * 100 >= v.duration_seconds * ${options.percent})::int
               as completed,
             max(st.updated_at) as last_watched
      from ${videoStats} st join ${videos} v on v.id = st.video_id
      where st.course_id = ${courseId} and ${inIntArray(sql`st.video_id`, options.videoIds)}
      group by st.user_id
    )
    select u.id, u.email, u.first_name, u.last_name, coalesce(s.completed, 0) as completed,
           s.last_watched, count(*) over ()::int as total
    from ${courseStudents} cs
    join ${users} u on u.id = cs.user_id
    left join s on s.user_id = u.id
    where cs.course_id = ${courseId} ${searchSql}
    order by ${orderSql}, u.id
    ${limitSql}
  `);
  const { rows } = TableStudentRows.parse(result);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && options.offset > 0) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(courseStudents)
      .innerJoin(users, eq(users.id, courseStudents.userId))
      .where(
        and(
          eq(courseStudents.courseId, courseId),
          like
            ? sql`(${users.email} ilike ${like} or ${users.firstName} ilike ${like} or ${users.lastName} ilike ${like})`
            : undefined,
        ),
      );
    count = counted?.n ?? 0;
  }
  return {
    count,
    rows: rows.map((r) => ({
      id: r.id,
      email: r.email,
      firstName: r.first_name,
      lastName: r.last_name,
      completed: r.completed,
      lastWatchedAt: r.last_watched,
    })),
  };
}

/** The stats of these students for these videos. */
export async function tableCells(
  db: Executor,
  courseId: number,
  userIds: number[],
  videoIds: number[],
): Promise<TableCell[]> {
  if (userIds.length === 0 || videoIds.length === 0) return [];
  return db
    .select({
      userId: videoStats.userId,
      videoId: videoStats.videoId,
      watchedSeconds: videoStats.watchedSeconds,
      updatedAt: videoStats.updatedAt,
    })
    .from(videoStats)
    .where(
      and(
        eq(videoStats.courseId, courseId),
        inIntArray(videoStats.userId, userIds),
        inIntArray(videoStats.videoId, videoIds),
      ),
    );
}
