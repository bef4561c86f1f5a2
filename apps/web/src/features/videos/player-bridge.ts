import type { VideoPlatform } from '@kadai/contracts';

/*
 * Talks to an embedded Vimeo or YouTube player through postMessage, as their own player libraries do,
 * without loading scripts from their sites (the page's CSP allows scripts from itself only). Messages
 * are taken only from the player's frame and origin.
 * - Vimeo: the player says `{ event: 'ready' }`; we send `{ method: 'addEventListener', value }` for
 *   timeupdate, play, pause, seeked and ended; it sends `{ event, data: { seconds, duration } }`.
 * - YouTube (`enablejsapi=1`): we send `{ event: 'listening' }`; it sends `infoDelivery` with
 *   `currentTime` and `playerState` (1 playing, 2 paused, 0 ended, 3 buffering).
 */

export type PlayerEvent =
  { type: 'time'; seconds: number } | { type: 'state'; state: 'playing' | 'paused' | 'ended' | 'seeked' };

const VIMEO_EVENTS = ['timeupdate', 'play', 'pause', 'seeked', 'ended'];

function parse(data: unknown): Record<string, unknown> | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

const numberIn = (value: unknown, key: string): number | null => {
  const record = parse(value);
  const n = record?.[key];
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** Turns one message of the player into events (pure: tested without a browser). */
export function readPlayerMessage(platform: VideoPlatform, data: unknown): PlayerEvent[] | 'ready' | null {
  const message = parse(data);
  if (!message) return null;
  if (platform === 'vimeo') {
    switch (message.event) {
      case 'ready':
        return 'ready';
      case 'timeupdate': {
        const seconds = numberIn(message.data, 'seconds');
        return seconds === null ? [] : [{ type: 'time', seconds }];
      }
      case 'play':
        return [{ type: 'state', state: 'playing' }];
      case 'pause':
        return [{ type: 'state', state: 'paused' }];
      case 'ended':
        return [{ type: 'state', state: 'ended' }];
      case 'seeked':
        return [{ type: 'state', state: 'seeked' }];
      default:
        return null;
    }
  }
  if (message.event === 'onReady') return 'ready';
  const events: PlayerEvent[] = [];
  const state =
    message.event === 'onStateChange'
      ? message.info
      : message.event === 'infoDelivery'
        ? parse(message.info)?.playerState
        : undefined;
  if (message.event === 'infoDelivery') {
    const seconds = numberIn(message.info, 'currentTime');
    if (seconds !== null) events.push({ type: 'time', seconds });
  }
  if (state === 1) events.push({ type: 'state', state: 'playing' });
  else if (state === 2) events.push({ type: 'state', state: 'paused' });
  else if (state === 0) events.push({ type: 'state', state: 'ended' });
  return events.length > 0 ? events : null;
}

/** The address the player is embedded from. */
export function playerSrc(
  platform: VideoPlatform,
  base: string,
  videoId: string,
  pageOrigin: string,
): string {
  const url = new URL(`${base}${encodeURIComponent(videoId)}`);
  if (platform === 'vimeo') {
    url.searchParams.set('dnt', '1');
  } else {
    url.searchParams.set('enablejsapi', '1');
    url.searchParams.set('rel', '0');
    url.searchParams.set('origin', pageOrigin);
  }
  return url.toString();
}

/** Connects to the player in `frame`; returns the function that disconnects. */
export function connectPlayer(
  frame: HTMLIFrameElement,
  platform: VideoPlatform,
  onEvent: (event: PlayerEvent) => void,
): () => void {
  const origin = new URL(frame.src).origin;
  const post = (message: object) => frame.contentWindow?.postMessage(JSON.stringify(message), origin);
  const subscribe = () => {
    if (platform === 'vimeo') {
      for (const value of VIMEO_EVENTS) post({ method: 'addEventListener', value });
    } else {
      post({ event: 'listening', id: 1, channel: 'widget' });
    }
  };
  const onMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || event.origin !== origin) return;
    const read = readPlayerMessage(platform, event.data);
    if (read === 'ready') subscribe();
    else read?.forEach(onEvent);
  };
  window.addEventListener('message', onMessage);
  // YouTube starts talking only once asked; asking again on load covers a ready sent before we listened.
  frame.addEventListener('load', subscribe);
  return () => {
    window.removeEventListener('message', onMessage);
    frame.removeEventListener('load', subscribe);
  };
}
