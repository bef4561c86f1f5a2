// The API server of bench:video-stats (bench/video-stats.bench.ts starts it): a fresh database seeded
// in bulk SQL with one course, BENCH_STUDENTS students and an editor, BENCH_VIDEOS videos and about 30
// video_stats rows per student, then the real API, announced by one JSON line (bench/bench-api.ts).
import { openBenchDatabase, serveBenchApi, signInForBench } from './bench-api.ts';
import type { Ready } from './video-stats-load.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 50);

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const FAMILY_NAMES = ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', 'Smith', 'García', 'Nguyen', 'Kim'];
const GIVEN_NAMES = ['翔太', '陽菜', '蓮', '結衣', '大輝', 'Emma', 'Liam', 'Sofia', 'Minh', 'Ji-woo'];
const DAY_MS = 86_400_000;

interface StatJson {
  user_id: number;
  video_id: number;
  intervals: [number, number][];
  watched_seconds: number;
  last_position: number;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

async function seedCourse(query: Query): Promise<
  Omit<Ready, 'port' | 'tokens' | 'editorToken'> & {
    studentIds: number[];
    editorId: number;
  }
> {
  const started = performance.now();
  const { makeRandom } = await import('./forum-text.ts');
  const { mergeIntervals, totalSeconds } = await import('../apps/api/src/features/videos/intervals.ts');
  const random = makeRandom(20261125);
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id));

  const [course] = ids(
    (
      await query(`INSERT INTO courses (title, description, has_videos) VALUES ($1, $2, true) RETURNING id`, [
        'Lectures: Algorithms in Python',
        'Video statistics benchmark course',
      ])
    ).rows,
  );
  const courseId = course!;
  const [editorId] = ids(
    (
      await query(
        `INSERT INTO users (email, first_name, last_name) VALUES ('bench-editor@example.com', 'Emily', 'Carter')
         RETURNING id`,
      )
    ).rows,
  );
  await query(`INSERT INTO course_editors (course_id, user_id) VALUES ($1, $2)`, [courseId, editorId]);
  const people = Array.from({ length: STUDENTS }, (_, i) => ({
    email: `bench-student-${i}@example.com`,
    first_name: GIVEN_NAMES[Math.floor(random() * GIVEN_NAMES.length)]!,
    last_name: FAMILY_NAMES[Math.floor(random() * FAMILY_NAMES.length)]!,
  }));
  const studentIds = ids(
    (
      await query(
        `INSERT INTO users (email, first_name, last_name)
         SELECT x.email, x.first_name, x.last_name
         FROM json_to_recordset($1::json) AS x(email text, first_name text, last_name text)
         RETURNING id`,
        [JSON.stringify(people)],
      )
    ).rows,
  );
  await query(`INSERT INTO course_students (course_id, user_id) SELECT $1, unnest($2::int[])`, [
    courseId,
    studentIds,
  ]);

  const videoRows = Array.from({ length: VIDEOS }, (_, i) => ({
    external_id: `bench${String(i).padStart(6, '0')}`,
    name: `Lecture ${i + 1}`,
    duration_seconds: 600 + Math.floor(random() * 3001),
    position: i,
  }));
  const inserted = (
    await query(
      `INSERT INTO videos (course_id, platform, external_id, name, duration_seconds, position)
       SELECT $2, 'youtube', x.external_id, x.name, x.duration_seconds, x.position
       FROM json_to_recordset($1::json) AS x(external_id text, name text, duration_seconds int, position int)
       RETURNING id, position, duration_seconds`,
      [JSON.stringify(videoRows), courseId],
    )
  ).rows
    .map((r) => ({ id: Number(r.id), position: Number(r.position), duration: Number(r.duration_seconds) }))
    .sort((a, b) => a.position - b.position);

  // The newest video is the lecture of the write phase: nobody has played it yet. The others were
  // watched over the last 60 days, the earlier ones by more students; engaged students watch more.
  const now = Date.now();
  const stats: StatJson[] = [];
  const watchable = inserted.slice(0, -1);
  for (const userId of studentIds) {
    const engagement = Math.min(1, 0.2 + 1.2 * random());
    for (const [k, video] of watchable.entries()) {
      if (random() >= engagement * (1 - k / 150)) continue;
      const d = video.duration;
      const tenth = (x: number) => Math.round(x * 10) / 10;
      let played: [number, number][];
      if (random() < 0.6) {
        played = [[0, d]];
      } else {
        played = Array.from({ length: 1 + Math.floor(random() * 3) }, (): [number, number] => {
          const start = tenth(random() * d * 0.8);
          return [start, tenth(Math.min(d, start + 30 + random() * d * 0.4))];
        });
      }
      const intervals = mergeIntervals(played);
      const watched = totalSeconds(intervals);
      const released = now - ((watchable.length - k) / watchable.length) * 60 * DAY_MS;
      const updated = new Date(Math.min(now - 60_000, released + random() * 5 * DAY_MS));
      stats.push({
        user_id: userId,
        video_id: video.id,
        intervals,
        watched_seconds: watched,
        last_position: intervals.at(-1)![1],
        completed_at: watched * 100 >= d * 90 ? updated.toISOString() : null,
        created_at: new Date(updated.getTime() - random() * DAY_MS).toISOString(),
        updated_at: updated.toISOString(),
      });
    }
  }
  for (let from = 0; from < stats.length; from += 2000) {
    await query(
      `INSERT INTO video_stats (user_id, video_id, course_id, intervals, watched_seconds, last_position,
         completed_at, created_at, updated_at)
       SELECT x.user_id, x.video_id, $2, x.intervals, x.watched_seconds, x.last_position, x.completed_at,
         x.created_at, x.updated_at
       FROM json_to_recordset($1::json) AS x(user_id int, video_id int, intervals jsonb,
         watched_seconds float8, last_position float8, completed_at timestamptz, created_at timestamptz,
         updated_at timestamptz)`,
      [JSON.stringify(stats.slice(from, from + 2000)), courseId],
    );
  }
  const durations = inserted.map((v) => v.duration);
  return {
    courseId,
    lectureVideoId: inserted.at(-1)!.id,
    videoIds: inserted.map((v) => v.id),
    studentIds,
    editorId: editorId!,
    seeded: {
      students: studentIds.length,
      videos: inserted.length,
      statRows: stats.length,
      shortestVideo: Math.min(...durations),
      longestVideo: Math.max(...durations),
      seconds: (performance.now() - started) / 1000,
    },
  };
}

async function serve(): Promise<void> {
  const bench = await openBenchDatabase('video-stats');
  const { studentIds, editorId, ...world } = await bench.database.transaction((query) => seedCourse(query));
  await bench.database.query('VACUUM ANALYZE users, course_students, course_editors, videos, video_stats');
  const [editorToken, ...tokens] = await signInForBench(bench, [editorId, ...studentIds], 7200);
  await serveBenchApi(bench, { ...world, tokens, editorToken });
}

await serve();
