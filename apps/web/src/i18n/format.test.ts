import { describe, expect, it } from 'vitest';
import { inZone } from '../test/zone.ts';
import {
  formatDateTime,
  formatDateTimeRange,
  formatDeadline,
  formatTime,
  formatTimeRange,
} from './format.ts';

const TOKYO = { timeZone: 'Asia/Tokyo' };
const OPENS = '2026-04-01T01:05:00+09:00';
const SAME_DAY = '2026-04-01T12:30:00+09:00';
const CLOSES = '2026-04-08T23:59:00+09:00';

describe('the browser’s own zone', () => {
  it('is followed when it changes while the page is open, in the same task or a later one', async () => {
    const moment = '2026-04-01T01:05:00Z';
    inZone('Asia/Tokyo', () => expect(formatTime(moment, 'en-US')).toBe('10:05'));
    inZone('America/New_York', () => expect(formatTime(moment, 'en-US')).toBe('21:05'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    inZone('Asia/Tokyo', () =>
      expect(formatDateTime(moment, 'ja', { zone: true })).toBe('2026年4月1日(水) 10:05 JST'),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Same offset, another zone: a later task reads the zone's name again.
    inZone('Asia/Seoul', () =>
      expect(formatDateTime(moment, 'ja', { zone: true })).toBe('2026年4月1日(水) 10:05 GMT+9'),
    );
  });
});

describe('the one date-time format of each language', () => {
  it('writes a moment with weekday and a 24-hour time, in English too', () => {
    expect(formatDateTime(OPENS, 'en-US', TOKYO)).toBe('Wed, Apr 1, 2026, 01:05');
    expect(formatDateTime(CLOSES, 'en-US', TOKYO)).toBe('Wed, Apr 8, 2026, 23:59');
    expect(formatDateTime(OPENS, 'ja', TOKYO)).toBe('2026年4月1日(水) 01:05');
    // Midnight is 00:00 of the day it starts, never "12:00 AM" or "24:00".
    expect(formatDateTime('2026-04-09T00:00:00+09:00', 'en-US', TOKYO)).toBe('Thu, Apr 9, 2026, 00:00');
  });

  it('names the zone after the time when asked', () => {
    expect(formatDateTime(CLOSES, 'en-US', { ...TOKYO, zone: true })).toBe('Wed, Apr 8, 2026, 23:59 GMT+9');
    expect(formatDateTime(CLOSES, 'ja', { ...TOKYO, zone: true })).toBe('2026年4月8日(水) 23:59 JST');
  });

  it('writes times alone the same way', () => {
    expect(formatTime(OPENS, 'en-US', TOKYO)).toBe('01:05');
    expect(formatTime(CLOSES, 'ja', TOKYO)).toBe('23:59');
    expect(formatTimeRange(OPENS, SAME_DAY, 'en-US', TOKYO)).toBe('01:05 – 12:30');
    expect(formatTimeRange(OPENS, SAME_DAY, 'ja', TOKYO)).toBe('01:05〜12:30');
  });

  it('writes both ends of a range exactly as single moments, the zone once at the end', () => {
    expect(formatDateTimeRange(OPENS, CLOSES, 'en-US', { ...TOKYO, zone: true })).toBe(
      'Wed, Apr 1, 2026, 01:05 – Wed, Apr 8, 2026, 23:59 GMT+9',
    );
    // Intl's own Japanese interval pattern ("2026/4/1(水) 1:05～…") would differ from the single moment.
    const ja = formatDateTimeRange(OPENS, CLOSES, 'ja', { ...TOKYO, zone: true });
    expect(ja).toBe('2026年4月1日(水) 01:05〜2026年4月8日(水) 23:59 JST');
    expect(ja.startsWith(formatDateTime(OPENS, 'ja', TOKYO))).toBe(true);
    expect(ja.endsWith(formatDateTime(CLOSES, 'ja', { ...TOKYO, zone: true }))).toBe(true);
  });

  it('gives the date once when a range ends on the day it starts, in the zone shown', () => {
    expect(formatDateTimeRange(OPENS, SAME_DAY, 'en-US', TOKYO)).toBe('Wed, Apr 1, 2026, 01:05 – 12:30');
    expect(formatDateTimeRange(OPENS, SAME_DAY, 'ja', { ...TOKYO, zone: true })).toBe(
      '2026年4月1日(水) 01:05〜12:30 JST',
    );
    // The same two moments fall on two days in UTC.
    expect(formatDateTimeRange(OPENS, SAME_DAY, 'en-US', { timeZone: 'UTC' })).toBe(
      'Tue, Mar 31, 2026, 16:05 – Wed, Apr 1, 2026, 03:30',
    );
  });
});

describe('a deadline', () => {
  it('names the reader’s zone only when the course’s clock shows another time', () => {
    inZone('Asia/Tokyo', () => {
      expect(formatDeadline(CLOSES, 'en-US', 'Asia/Tokyo')).toBe('Wed, Apr 8, 2026, 23:59');
      // Another name, the same offset: the same time on both clocks.
      expect(formatDeadline(CLOSES, 'ja', 'Asia/Seoul')).toBe('2026年4月8日(水) 23:59');
      // Outside a course nothing says where the deadline is: the zone is named.
      expect(formatDeadline(CLOSES, 'en-US', null)).toBe('Wed, Apr 8, 2026, 23:59 GMT+9');
    });
    inZone('Europe/Paris', () => {
      expect(formatDeadline(CLOSES, 'en-US', 'Asia/Tokyo')).toBe('Wed, Apr 8, 2026, 16:59 GMT+2');
      expect(formatDeadline(CLOSES, 'ja', 'Asia/Tokyo')).toBe('2026年4月8日(水) 16:59 GMT+2');
    });
  });
});
