import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { videoStats, videos } from '../../db/schema-videos.ts';
import { mergeIntervals, totalSeconds, type Interval } from './intervals.ts';

/** Public lectures on YouTube and Vimeo (the embeds need the internet; the list and statistics do not). */
const DEMO_VIDEOS = [
  {
    platform: 'youtube',
    externalId: 'rfscVS0vtbw',
    name: 'Python for beginners (full course)',
    durationSeconds: 16_012,
  },
  {
    platform: 'youtube',
    externalId: '_uQrJ0TkZlc',
    name: 'Python tutorial: variables to classes',
    durationSeconds: 22_447,
  },
  { platform: 'vimeo', externalId: '76979871', name: 'Welcome to the course', durationSeconds: 62 },
] as const;

/**
 * Demo content of the seed: three lecture videos in the demo course, which the first demo student has
 * partly watched (with a skipped stretch) and the second has finished, so the statistics table shows
 * each kind of cell.
 */
export async function seedDemoVideos(tx: Tx, world: DemoWorld): Promise<void> {
  const rows = await tx
    .insert(videos)
    .values(DEMO_VIDEOS.map((video, position) => ({ ...video, courseId: world.course.id, position })))
    .returning();
  const [first, second] = world.students;
  const watched: { userId: number; videoId: number; intervals: Interval[] }[] = [];
  const welcome = rows.find((r) => r.platform === 'vimeo')!;
  const course = rows[0]!;
  if (first) {
    watched.push({
      userId: first.id,
      videoId: course.id,
      intervals: [
        [0, 1800],
        [3600, 4200],
      ],
    });
    watched.push({ userId: first.id, videoId: welcome.id, intervals: [[0, 30]] });
  }
  if (second) watched.push({ userId: second.id, videoId: welcome.id, intervals: [[0, 62]] });
  if (watched.length === 0) return;
  await tx.insert(videoStats).values(
    watched.map((w) => {
      const intervals = mergeIntervals(w.intervals);
      const seconds = totalSeconds(intervals);
      const duration = rows.find((r) => r.id === w.videoId)!.durationSeconds;
      return {
        ...w,
        courseId: world.course.id,
        intervals,
        watchedSeconds: seconds,
        lastPosition: intervals.at(-1)![1],
        completedAt: seconds >= duration * 0.9 ? new Date() : null,
      };
    }),
  );
}
