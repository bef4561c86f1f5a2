import type { Executor } from '../../db/client.ts';

/**
 * Rendered feeds, kept a minute per (user, version): calendar apps poll, sometimes many at once, and a
 * feed costs four queries. The version is part of the key, so a reset URL is never served from here
 * (the token is checked against the database first anyway). Event changes clear the cache at once;
 * a changed assignment or quiz date shows within the minute. One cache per database handle, so two
 * apps in one process (tests) never share one.
 */
export const FEED_CACHE_SECONDS = 60;
const MAX_CACHED_FEEDS = 500;

interface Cached {
  body: string;
  expiresAt: number;
}

const caches = new WeakMap<Executor, Map<string, Cached>>();

function cacheOf(db: Executor): Map<string, Cached> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

export function findRenderedFeed(db: Executor, key: string, now: number = Date.now()): string | null {
  const cache = cacheOf(db);
  const hit = cache.get(key);
  if (!hit) return null;
  if (hit.expiresAt <= now) {
    cache.delete(key);
    return null;
  }
  return hit.body;
}

export function keepRenderedFeed(db: Executor, key: string, body: string, now: number = Date.now()): void {
  const cache = cacheOf(db);
  // Maps keep insertion order: the first key is the oldest.
  if (cache.size >= MAX_CACHED_FEEDS) cache.delete(cache.keys().next().value!);
  cache.set(key, { body, expiresAt: now + FEED_CACHE_SECONDS * 1000 });
}

export function forgetRenderedFeeds(db: Executor): void {
  caches.get(db)?.clear();
}
