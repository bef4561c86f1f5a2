import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  defaultWindowIn,
  endOfDayHere,
  instantOf,
  isSameZone,
  wallTimeIn,
  type WallTime,
} from './course-time.ts';
import { inZone } from '../../test/zone.ts';

const NEW_YORK = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
const at = (year: number, month: number, day: number, hour = 0, minute = 0): WallTime => ({
  year,
  month,
  day,
  hour,
  minute,
});
const iso = (date: Date) => date.toISOString();

describe('wall times in a zone', () => {
  it('reads the clock of a zone without daylight saving', () => {
    expect(wallTimeIn(new Date('2026-04-30T14:30:59Z'), TOKYO)).toEqual(at(2026, 4, 30, 23, 30));
    expect(wallTimeIn(new Date('2026-04-30T15:00:00Z'), TOKYO)).toEqual(at(2026, 5, 1, 0, 0));
  });

  it('reads New York in winter (UTC−5) and summer (UTC−4)', () => {
    expect(wallTimeIn(new Date('2026-01-16T04:59:00Z'), NEW_YORK)).toEqual(at(2026, 1, 15, 23, 59));
    expect(wallTimeIn(new Date('2026-07-16T03:59:00Z'), NEW_YORK)).toEqual(at(2026, 7, 15, 23, 59));
  });

  it('finds the instant a clock shows a time, on both sides of daylight saving', () => {
    expect(iso(instantOf(at(2026, 4, 8, 23, 59), TOKYO))).toBe('2026-04-08T14:59:00.000Z');
    expect(iso(instantOf(at(2026, 1, 15, 23, 59), NEW_YORK))).toBe('2026-01-16T04:59:00.000Z');
    expect(iso(instantOf(at(2026, 7, 15, 23, 59), NEW_YORK))).toBe('2026-07-16T03:59:00.000Z');
  });

  it('moves a skipped time forward and takes the first of a repeated one', () => {
    // 8 March 2026: New York's clocks jump from 02:00 to 03:00, so 02:30 is 03:30 EDT.
    expect(iso(instantOf(at(2026, 3, 8, 2, 30), NEW_YORK))).toBe('2026-03-08T07:30:00.000Z');
    // 1 November 2026: 01:30 happens twice, first in EDT.
    expect(iso(instantOf(at(2026, 11, 1, 1, 30), NEW_YORK))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('adds calendar days across months and years', () => {
    expect(addCalendarDays(at(2026, 4, 30, 23, 59), 7)).toEqual(at(2026, 5, 7, 23, 59));
    expect(addCalendarDays(at(2026, 12, 28), 7)).toEqual(at(2027, 1, 4));
    expect(addCalendarDays(at(2028, 2, 25), 4)).toEqual(at(2028, 2, 29));
  });
});

describe('the default window of a new assignment or quiz', () => {
  it('opens this minute and closes at 23:59 there a week from the course’s today (no DST)', () => {
    const now = new Date('2026-04-01T10:20:45+09:00');
    expect(defaultWindowIn(TOKYO, now)).toEqual({
      opens: new Date('2026-04-01T10:20:00+09:00'),
      closes: new Date('2026-04-08T23:59:00+09:00'),
    });
    // 23:30 on 30 April in Tokyo is still 30 April there; 00:30 is already 1 May.
    expect(iso(defaultWindowIn(TOKYO, new Date('2026-04-30T14:30:00Z')).closes)).toBe(
      '2026-05-07T14:59:00.000Z',
    );
    expect(iso(defaultWindowIn(TOKYO, new Date('2026-04-30T15:30:00Z')).closes)).toBe(
      '2026-05-08T14:59:00.000Z',
    );
  });

  it('still closes at 23:59 when New York’s clocks change during the week', () => {
    // Forward on 8 March: opened in EST, closes 23:59 EDT (UTC−4).
    expect(iso(defaultWindowIn(NEW_YORK, new Date('2026-03-05T12:00:00-05:00')).closes)).toBe(
      '2026-03-13T03:59:00.000Z',
    );
    // Back on 1 November: opened in EDT, closes 23:59 EST (UTC−5).
    expect(iso(defaultWindowIn(NEW_YORK, new Date('2026-10-29T12:00:00-04:00')).closes)).toBe(
      '2026-11-06T04:59:00.000Z',
    );
  });

  it('counts the days in the course’s zone whatever the browser’s is', () => {
    // 21:00 on 31 March in New York is already 1 April in Tokyo.
    const now = new Date('2026-03-31T21:00:00-04:00');
    for (const zone of ['UTC', NEW_YORK, 'Pacific/Kiritimati']) {
      inZone(zone, () => {
        expect(iso(defaultWindowIn(TOKYO, now).closes), zone).toBe('2026-04-08T14:59:00.000Z');
        expect(iso(defaultWindowIn(NEW_YORK, now).closes), zone).toBe('2026-04-08T03:59:00.000Z');
      });
    }
  });
});

describe('the hint under date fields', () => {
  it('is needed only when the browser is in another zone (aliases are the same zone)', () => {
    expect(endOfDayHere(TOKYO, new Date(), TOKYO)).toBeNull();
    expect(isSameZone('Asia/Kolkata', 'Asia/Calcutta')).toBe(true);
    expect(isSameZone(TOKYO, 'Asia/Seoul')).toBe(false);
  });

  it('says when 23:59 there is here, and on which day', () => {
    // Tokyo's 23:59 is 10:59 the same day in New York in April (EDT), 09:59 in January (EST).
    expect(endOfDayHere(TOKYO, new Date('2026-04-08T12:00:00Z'), NEW_YORK)).toEqual({
      time: '10:59',
      dayShift: 0,
    });
    expect(endOfDayHere(TOKYO, new Date('2026-01-08T12:00:00Z'), NEW_YORK)).toEqual({
      time: '09:59',
      dayShift: 0,
    });
    // New York's 23:59 is the next afternoon in Tokyo.
    expect(endOfDayHere(NEW_YORK, new Date('2026-01-15T12:00:00-05:00'), TOKYO)).toEqual({
      time: '13:59',
      dayShift: 1,
    });
    // Kiritimati (UTC+14) ends its day the evening before in Honolulu (UTC−10).
    expect(endOfDayHere('Pacific/Kiritimati', new Date('2026-04-08T00:00:00Z'), 'Pacific/Honolulu')).toEqual({
      time: '23:59',
      dayShift: -1,
    });
  });
});
