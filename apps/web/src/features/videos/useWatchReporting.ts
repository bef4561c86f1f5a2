import { useQueryClient } from '@tanstack/react-query';
import type { Video, VideoStat, VideoStatList } from '@kadai/contracts';
import { useCallback, useEffect, useRef } from 'react';
import type { PlayerEvent } from './player-bridge.ts';
import { reportWatch } from './videos.api.ts';
import { videoKeys } from './videos.queries.ts';
import { WatchTracker } from './watch-tracker.ts';

/** Reports are sent this often while playing, and at once on pause, end and leaving the page. */
export const REPORT_EVERY_MS = 10_000;

/**
 * Feeds the player's events to a WatchTracker and reports what was played to `POST video-stats/`;
 * the answer (the merged figures) replaces the viewer's figures in the cache, so progress updates live.
 */
export function useWatchReporting(video: Video | undefined): (event: PlayerEvent) => void {
  const queryClient = useQueryClient();
  const tracker = useRef(new WatchTracker());
  const playing = useRef(false);
  const sentPosition = useRef<number | null>(null);
  const videoRef = useRef(video);
  useEffect(() => {
    videoRef.current = video;
  });

  const flush = useCallback(() => {
    const current = videoRef.current;
    if (!current) return;
    const intervals = tracker.current.take();
    const position = Math.round(tracker.current.position * 10) / 10;
    if (intervals.length === 0 && position === sentPosition.current) return;
    sentPosition.current = position;
    reportWatch({ video: current.id, intervals, position })
      .then((stat: VideoStat) => {
        queryClient.setQueryData<VideoStatList>(videoKeys.myStats(current.course), (old) => {
          if (!old) return old;
          const others = old.results.filter((s) => s.video !== stat.video);
          return { ...old, count: others.length + 1, results: [...others, stat] };
        });
      })
      .catch(() => {
        // A lost report costs at most the seconds it carried; the next one goes on from the player's time.
      });
  }, [queryClient]);

  useEffect(() => {
    tracker.current = new WatchTracker();
    playing.current = false;
    sentPosition.current = null;
    const timer = window.setInterval(() => {
      if (playing.current) flush();
    }, REPORT_EVERY_MS);
    const onHide = () => {
      if (document.visibilityState === 'hidden') {
        tracker.current.stop();
        flush();
      }
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onHide);
      tracker.current.stop();
      flush();
    };
  }, [video?.id, flush]);

  return useCallback(
    (event: PlayerEvent) => {
      const now = performance.now();
      if (event.type === 'time') {
        tracker.current.time(event.seconds, playing.current, now);
        return;
      }
      if (event.state === 'playing') {
        playing.current = true;
      } else if (event.state === 'seeked') {
        tracker.current.stop();
      } else {
        playing.current = false;
        tracker.current.stop();
        flush();
      }
    },
    [flush],
  );
}
