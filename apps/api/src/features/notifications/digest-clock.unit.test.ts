import { describe, expect, it } from 'vitest';
import { digestSlot, isDigestDue, localDate, zonedInstant, zoneOf } from './digest-clock.ts';

describe('the digest clock', () => {
  it('gives each person their own date and their own 08:00, across a day change between zones', () => {
    // 23:00 UTC on 29 November: already the 30th in Tokyo, still the 29th in Los Angeles.
    const now = new Date('2026-11-29T23:00:00Z');
    expect(localDate(now, 'Asia/Tokyo')).toBe('2026-11-30');
    expect(localDate(now, 'America/Los_Angeles')).toBe('2026-11-29');
    expect(digestSlot(now, 'Asia/Tokyo', 8)).toEqual({
      date: '2026-11-30',
      at: new Date('2026-11-29T23:00:00Z'),
    });
    expect(digestSlot(now, 'America/Los_Angeles', 8)).toEqual({
      date: '2026-11-29',
      at: new Date('2026-11-29T16:00:00Z'),
    });
  });

  it('reads a skipped hour as the change and a repeated hour as its first time', () => {
    // Los Angeles springs forward at 02:00 on 8 March 2026 and falls back at 02:00 on 1 November.
    expect(zonedInstant('2026-03-08', 2, 'America/Los_Angeles')).toEqual(new Date('2026-03-08T10:00:00Z'));
    expect(zonedInstant('2026-03-08', 8, 'America/Los_Angeles')).toEqual(new Date('2026-03-08T15:00:00Z'));
    expect(zonedInstant('2026-11-01', 1, 'America/Los_Angeles')).toEqual(new Date('2026-11-01T08:00:00Z'));
    expect(zonedInstant('2026-11-01', 8, 'America/Los_Angeles')).toEqual(new Date('2026-11-01T16:00:00Z'));
    expect(zonedInstant('2026-06-01', 0, 'UTC')).toEqual(new Date('2026-06-01T00:00:00Z'));
  });

  it('is due once a day, after the hour, for what came before the hour', () => {
    const slot = { date: '2026-11-30', at: new Date('2026-11-29T23:00:00Z') };
    const before = new Date('2026-11-29T20:00:00Z');
    const after = new Date('2026-11-29T23:30:00Z');
    expect(isDigestDue(new Date('2026-11-29T22:59:59Z'), slot, null, before)).toBe(false);
    expect(isDigestDue(new Date('2026-11-29T23:00:00Z'), slot, null, before)).toBe(true);
    expect(isDigestDue(after, slot, '2026-11-29', before)).toBe(true);
    expect(isDigestDue(after, slot, '2026-11-30', before)).toBe(false);
    // Only later events waiting: tomorrow's digest takes them.
    expect(isDigestDue(new Date('2026-11-29T23:45:00Z'), slot, null, after)).toBe(false);
    expect(isDigestDue(after, slot, null, null)).toBe(false);
  });

  it("follows the person's zone when the engine knows it, else the server's", () => {
    expect(zoneOf('America/Los_Angeles', 'Asia/Tokyo')).toBe('America/Los_Angeles');
    expect(zoneOf(null, 'Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(zoneOf('Mars/Olympus_Mons', 'Asia/Tokyo')).toBe('Asia/Tokyo');
  });
});
