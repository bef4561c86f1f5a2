import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, supportedTimeZones, timeZone } from './time-zone.ts';

describe('course time zones', () => {
  it('lists the engine’s IANA zones and UTC, sorted', () => {
    const zones = supportedTimeZones();
    expect(zones).toContain('Asia/Tokyo');
    expect(zones).toContain('America/New_York');
    expect(zones).toContain('UTC');
    expect(zones).toEqual([...zones].sort());
  });

  it('gives the listed name for aliases and other cases, null for what is no zone', () => {
    expect(canonicalTimeZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    const kolkata = canonicalTimeZone('Asia/Kolkata');
    expect(kolkata === null ? null : supportedTimeZones()).toContain(kolkata);
    for (const bad of ['Mars/Olympus', 'Tokyo', '+09:00', '', 'Asia/Tokyo\u0000']) {
      expect(canonicalTimeZone(bad), bad).toBeNull();
    }
  });

  it('is checked by the request schema, which refuses control characters first', () => {
    const schema = timeZone();
    expect(schema.parse(' Asia/Tokyo ')).toBe('Asia/Tokyo');
    expect(schema.parse('utc')).toBe('UTC');
    expect(schema.safeParse('Asia/Atlantis').error?.issues[0]?.message).toMatch(/time zone/);
    expect(schema.safeParse('Asia/\u0007Tokyo').error?.issues[0]?.message).toMatch(/U\+0007/);
  });
});
