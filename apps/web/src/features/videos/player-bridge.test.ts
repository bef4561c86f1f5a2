import { describe, expect, it } from 'vitest';
import { playerSrc, readPlayerMessage } from './player-bridge.ts';

describe('player messages', () => {
  it('reads Vimeo’s events, as strings or objects', () => {
    expect(readPlayerMessage('vimeo', '{"event":"ready"}')).toBe('ready');
    expect(
      readPlayerMessage('vimeo', { event: 'timeupdate', data: { seconds: 12.5, duration: 60 } }),
    ).toEqual([{ type: 'time', seconds: 12.5 }]);
    expect(readPlayerMessage('vimeo', '{"event":"pause","data":{"seconds":3}}')).toEqual([
      { type: 'state', state: 'paused' },
    ]);
    expect(readPlayerMessage('vimeo', '{"event":"timeupdate","data":{"seconds":"x"}}')).toEqual([]);
    expect(readPlayerMessage('vimeo', 'not json')).toBeNull();
    expect(readPlayerMessage('vimeo', '{"method":"getDuration","value":60}')).toBeNull();
  });

  it('reads YouTube’s infoDelivery and state changes', () => {
    expect(readPlayerMessage('youtube', '{"event":"onReady"}')).toBe('ready');
    expect(
      readPlayerMessage('youtube', { event: 'infoDelivery', info: { currentTime: 42, playerState: 1 } }),
    ).toEqual([
      { type: 'time', seconds: 42 },
      { type: 'state', state: 'playing' },
    ]);
    expect(readPlayerMessage('youtube', '{"event":"onStateChange","info":0}')).toEqual([
      { type: 'state', state: 'ended' },
    ]);
    expect(readPlayerMessage('youtube', '{"event":"infoDelivery","info":{"volume":50}}')).toBeNull();
  });

  it('builds the embed addresses', () => {
    expect(playerSrc('vimeo', 'https://player.vimeo.com/video/', '76979871', 'https://lms.example')).toBe(
      'https://player.vimeo.com/video/76979871?dnt=1',
    );
    expect(
      playerSrc('youtube', 'https://www.youtube-nocookie.com/embed/', 'abc_DEF-123', 'https://lms.example'),
    ).toBe(
      'https://www.youtube-nocookie.com/embed/abc_DEF-123?enablejsapi=1&rel=0&origin=https%3A%2F%2Flms.example',
    );
  });
});
