import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

const actor = (userId: number, sessionId: string) => ({
  userId,
  sessionId,
  email: `u${userId}@example.test`,
  isStaff: false,
});

function listening(ttlMs = 60_000, maxEntries?: number, now?: () => number): SessionCache {
  const cache = new SessionCache(ttlMs, maxEntries, now);
  cache.setListening(true);
  return cache;
}

describe('SessionCache', () => {
  it('remembers a caller for its session and user only', () => {
    const cache = listening();
    cache.put(actor(1, 's1'), cache.begin());
    expect(cache.get('s1', 1)).toEqual(actor(1, 's1'));
    expect(cache.get('s2', 1)).toBeUndefined();
    // A token naming another user with this session id is not this caller.
    expect(cache.get('s1', 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('hands out frozen copies, so no request can change what the next one sees', () => {
    const cache = listening();
    const given = actor(1, 's1');
    cache.put(given, cache.begin());
    given.isStaff = true;
    const remembered = cache.get('s1', 1)!;
    expect(remembered.isStaff).toBe(false);
    expect(Object.isFrozen(remembered)).toBe(true);
  });

  it('forgets every session of a user at once', () => {
    const cache = listening();
    cache.put(actor(1, 'a'), cache.begin());
    cache.put(actor(1, 'b'), cache.begin());
    cache.put(actor(2, 'c'), cache.begin());
    cache.forgetUser(1);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('c', 2)).toBeDefined();
  });

  it('does not store a read that a change overtook (begin, change, put)', () => {
    const cache = listening();
    const since = cache.begin();
    cache.forgetUser(7); // whichever user: the read may predate a change it cannot see
    cache.put(actor(1, 's1'), since);
    expect(cache.get('s1', 1)).toBeUndefined();
  });

  it('follows notifications: u<id> forgets that user, other payloads forget everyone', () => {
    const cache = listening();
    cache.put(actor(1, 'a'), cache.begin());
    cache.put(actor(2, 'b'), cache.begin());
    cache.notified('u1');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 2)).toBeDefined();
    cache.notified('garbled');
    expect(cache.size).toBe(0);
  });

  it('remembers nothing while it cannot hear changes, and drops everything when that changes', () => {
    const cache = new SessionCache(60_000);
    cache.put(actor(1, 'a'), cache.begin());
    expect(cache.size).toBe(0);
    cache.setListening(true);
    cache.put(actor(1, 'a'), cache.begin());
    expect(cache.size).toBe(1);
    cache.setListening(false);
    expect(cache.size).toBe(0);
    expect(cache.enabled).toBe(false);
  });

  it('remembers nothing with a TTL of 0', () => {
    const cache = listening(0);
    cache.put(actor(1, 'a'), cache.begin());
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('forgets a caller after the TTL', () => {
    let now = 1_000;
    const cache = listening(60_000, undefined, () => now);
    cache.put(actor(1, 'a'), cache.begin());
    now += 59_999;
    expect(cache.get('a', 1)).toBeDefined();
    now += 1;
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('makes room by dropping the oldest beyond its size', () => {
    const cache = listening(60_000, 2);
    for (const id of ['a', 'b', 'c']) cache.put(actor(1, id), cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});
