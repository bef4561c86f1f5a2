import type { Video, VideoStat } from '@kadai/contracts';

/** A duration as a clock: 4:05, 1:02:03. */
export function clock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Whole percent, never 100 before the last second is watched. */
export const percent = (progress: number) => Math.min(100, Math.floor(progress * 100));

/** The page's address of a video: `/course/{course_id}/{platform}/{video_url}`. */
export const videoParams = (video: Pick<Video, 'course' | 'platform' | 'video_id'>) => ({
  course_id: video.course,
  platform: video.platform,
  video_url: video.video_id,
});

export function statsByVideo(stats: readonly VideoStat[] | undefined): Map<number, VideoStat> {
  return new Map((stats ?? []).map((stat) => [stat.video, stat]));
}

/** Reads a video id from what an editor pasted: the id itself or a watch / share / embed address. */
export function parseVideoInput(input: string): { platform: 'vimeo' | 'youtube'; id: string } | null {
  const text = input.trim();
  if (/^\d{1,20}$/.test(text)) return { platform: 'vimeo', id: text };
  if (/^[A-Za-z0-9_-]{11}$/.test(text)) return { platform: 'youtube', id: text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^www\./, '');
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = /\/(\d{1,20})(?:\/|$)/.exec(url.pathname)?.[1];
    return id ? { platform: 'vimeo', id } : null;
  }
  const youtubeId =
    host === 'youtu.be'
      ? url.pathname.slice(1)
      : ['youtube.com', 'm.youtube.com', 'youtube-nocookie.com'].includes(host)
        ? (url.searchParams.get('v') ?? /^\/(?:embed|shorts|live)\/([^/]+)/.exec(url.pathname)?.[1] ?? '')
        : '';
  return /^[A-Za-z0-9_-]{11}$/.test(youtubeId) ? { platform: 'youtube', id: youtubeId } : null;
}
