import { AspectRatio } from '@mantine/core';
import type { Video } from '@kadai/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { connectPlayer, playerSrc, type PlayerEvent } from './player-bridge.ts';

/** The platform's embedded player, 16:9, reporting its events through `onEvent`. */
export function VideoPlayer({
  video,
  playerBase,
  onEvent,
}: {
  video: Video;
  playerBase: string;
  onEvent: (event: PlayerEvent) => void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const src =
    video.platform === 'file'
      ? null
      : playerSrc(video.platform, playerBase, video.video_id, window.location.origin);

  useEffect(() => {
    if (!frame.current || src === null || video.platform === 'file') return;
    return connectPlayer(frame.current, video.platform, (event) => handler.current(event));
  }, [src, video.platform]);

  if (video.platform === 'file') {
    return (
      <AspectRatio ratio={16 / 9}>
        <video
          key={video.stream_url}
          src={video.stream_url ?? undefined}
          controls
          preload="metadata"
          aria-label={t('videos.playerTitle', { name: video.name })}
          style={{ background: 'black', borderRadius: 'var(--mantine-radius-md)' }}
          onTimeUpdate={(event) =>
            handler.current({ type: 'time', seconds: event.currentTarget.currentTime })
          }
          onPlaying={() => handler.current({ type: 'state', state: 'playing' })}
          onPause={() => handler.current({ type: 'state', state: 'paused' })}
          onSeeked={() => handler.current({ type: 'state', state: 'seeked' })}
          onEnded={() => handler.current({ type: 'state', state: 'ended' })}
        />
      </AspectRatio>
    );
  }

  return (
    <AspectRatio ratio={16 / 9}>
      <iframe
        ref={frame}
        key={src}
        src={src ?? undefined}
        title={t('videos.playerTitle', { name: video.name })}
        allow="autoplay; fullscreen; picture-in-picture"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        style={{ border: 0, borderRadius: 'var(--mantine-radius-md)', background: 'black' }}
      />
    </AspectRatio>
  );
}
