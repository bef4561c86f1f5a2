import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dayKeyIn,
  fromZonedInput,
  isDayKey,
  monthGrid,
  periodOf,
  shiftDay,
  startOfDay,
  toZonedInput,
  weekDays,
  weekStartOf,
  zonedInstant,
} from './calendar-dates.ts';
import {
  entriesByDay,
  entryDays,
  isBandEntry,
  isMultiDay,
  layoutDay,
  POINT_MINUTES,
  weekBars,
} from './calendar-layout.ts';

const TOKYO = 'Asia/Tokyo';
const NEW_YORK = 'America/New_York';
const timed = (starts: string, ends: string = starts, key = starts) => ({
  key,
  starts_at: starts,
  ends_at: ends,
  all_day: false,
});

describe('civil dates', () => {
  it('checks day keys', () => {
    expect(isDayKey('2026-05-10')).toBe(true);
    expect(isDayKey('2026-02-30')).toBe(false);
    expect(isDayKey('2026-5-1')).toBe(false);
    expect(isDayKey(null)).toBe(false);
  });

  it('moves by months, keeping the day inside the month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(shiftDay('month', '2026-05-10', -1)).toBe('2026-04-10');
    expect(shiftDay('list', '2026-05-10', 1)).toBe('2026-06-10');
    expect(shiftDay('week', '2026-12-29', 1)).toBe('2027-01-05');
  });

  it('knows where weeks start in a locale', () => {
    expect(weekStartOf('ja')).toBe(0);
    expect(weekStartOf('en-US')).toBe(0);
    expect(weekStartOf('en-GB')).toBe(1);
    expect(weekStartOf('not a locale!')).toBe(0);
  });
});

describe('month grid and weeks', () => {
  it('covers a month with whole weeks from the locale’s first day', () => {
    // May 2026 starts on a Friday and ends on a Sunday.
    const sunday = monthGrid('2026-05-20', 0);
    expect(sunday).toHaveLength(6);
    expect(sunday[0]![0]).toBe('2026-04-26');
    expect(sunday.at(-1)).toEqual([
      '2026-05-31',
      '2026-06-01',
      '2026-06-02',
      '2026-06-03',
      '2026-06-04',
      '2026-06-05',
      '2026-06-06',
    ]);
    const monday = monthGrid('2026-05-20', 1);
    expect(monday).toHaveLength(5);
    expect(monday[0]![0]).toBe('2026-04-27');
    expect(monday.at(-1)!.at(-1)).toBe('2026-05-31');
    // February 2026 starts on a Sunday and has 28 days: exactly four weeks.
    expect(monthGrid('2026-02-01', 0)).toHaveLength(4);
  });

  it('gives the week of a day', () => {
    expect(weekDays('2026-05-13', 0)).toEqual([
      '2026-05-10',
      '2026-05-11',
      '2026-05-12',
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
    ]);
    expect(weekDays('2026-05-10', 1)[0]).toBe('2026-05-04');
    expect(weekDays('2026-12-31', 0).at(-1)).toBe('2027-01-02');
  });

  it('asks for local midnight to local midnight, whatever the zone', () => {
    const week = periodOf('week', '2026-05-13', 0, TOKYO);
    expect(week.from.toISOString()).toBe('2026-05-09T15:00:00.000Z');
    expect(week.to.toISOString()).toBe('2026-05-16T15:00:00.000Z');
    const list = periodOf('list', '2026-02-14', 0, 'UTC');
    expect(list.days).toHaveLength(28);
    expect(list.from.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(list.to.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    const month = periodOf('month', '2026-05-20', 0, NEW_YORK);
    expect(month.days).toHaveLength(42);
    expect(month.from.toISOString()).toBe('2026-04-26T04:00:00.000Z');
  });
});

describe('time zones', () => {
  it('finds the day of an instant in the zone', () => {
    expect(dayKeyIn(new Date('2026-05-09T15:00:00Z'), TOKYO)).toBe('2026-05-10');
    expect(dayKeyIn(new Date('2026-05-09T14:59:59Z'), TOKYO)).toBe('2026-05-09');
    expect(dayKeyIn(new Date('2026-05-10T03:59:00Z'), NEW_YORK)).toBe('2026-05-09');
  });

  it('handles days of 23 and 25 hours at daylight-saving changes', () => {
    // New York springs forward on 8 March 2026 and falls back on 1 November 2026.
    expect(startOfDay('2026-03-08', NEW_YORK).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDay('2026-03-09', NEW_YORK).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDay('2026-11-01', NEW_YORK).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDay('2026-11-02', NEW_YORK).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    const week = periodOf('week', '2026-03-08', 0, NEW_YORK);
    expect((week.to.getTime() - week.from.getTime()) / 3_600_000).toBe(7 * 24 - 1);
  });

  it('maps wall-clock times that are skipped or repeated', () => {
    // 02:30 does not exist on 8 March in New York: the clock shows 03:30 at that moment.
    expect(zonedInstant('2026-03-08', 150, NEW_YORK).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // 01:30 happens twice on 1 November: the first (still daylight time) is taken.
    expect(zonedInstant('2026-11-01', 90, NEW_YORK).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(zonedInstant('2026-05-10', 10 * 60 + 40, TOKYO).toISOString()).toBe('2026-05-10T01:40:00.000Z');
  });

  it('reads and writes datetime-local values in the zone', () => {
    expect(toZonedInput('2026-05-10T01:40:00Z', TOKYO)).toBe('2026-05-10T10:40');
    expect(fromZonedInput('2026-05-10T10:40', TOKYO)).toBe('2026-05-10T01:40:00.000Z');
    expect(fromZonedInput('2026-05-10T10:40', NEW_YORK)).toBe('2026-05-10T14:40:00.000Z');
    expect(toZonedInput('2026-05-10T14:40:00Z', NEW_YORK)).toBe('2026-05-10T10:40');
    for (const bad of ['', '2026-02-30T10:00', '2026-05-10T24:00', '2026-05-10 10:00', 'soon']) {
      expect(fromZonedInput(bad, TOKYO)).toBeNull();
    }
    expect(toZonedInput('not a date', TOKYO)).toBe('');
  });
});

describe('placing entries', () => {
  it('gives the days an entry touches', () => {
    // 23:00–01:00 in Tokyo touches two days; one ending at midnight touches one.
    expect(entryDays(timed('2026-05-10T14:00:00Z', '2026-05-10T16:00:00Z'), TOKYO)).toEqual({
      first: '2026-05-10',
      last: '2026-05-11',
    });
    expect(entryDays(timed('2026-05-10T13:00:00Z', '2026-05-10T15:00:00Z'), TOKYO)).toEqual({
      first: '2026-05-10',
      last: '2026-05-10',
    });
    // A deadline at midnight belongs to the day it starts.
    expect(entryDays(timed('2026-05-10T15:00:00Z'), TOKYO)).toEqual({
      first: '2026-05-11',
      last: '2026-05-11',
    });
    // All-day entries are dates, in any zone.
    const allDay = { starts_at: '2026-05-10T00:00:00Z', ends_at: '2026-05-12T00:00:00Z', all_day: true };
    expect(entryDays(allDay, NEW_YORK)).toEqual({ first: '2026-05-10', last: '2026-05-12' });
    expect(entryDays(allDay, TOKYO)).toEqual({ first: '2026-05-10', last: '2026-05-12' });
  });

  it('lists entries on every shown day they touch, and no others', () => {
    const days = weekDays('2026-05-13', 0);
    const quiz = timed('2026-05-08T00:00:00Z', '2026-05-12T03:00:00Z', 'quiz');
    const lecture = timed('2026-05-12T01:40:00Z', '2026-05-12T03:10:00Z', 'lecture');
    const later = timed('2026-05-20T01:40:00Z', '2026-05-20T03:10:00Z', 'later');
    const byDay = entriesByDay([quiz, lecture, later], days, TOKYO);
    expect([...byDay.entries()].map(([day, items]) => [day, items.map((e) => e.key)])).toEqual([
      ['2026-05-10', ['quiz']],
      ['2026-05-11', ['quiz']],
      ['2026-05-12', ['quiz', 'lecture']],
      ['2026-05-13', []],
      ['2026-05-14', []],
      ['2026-05-15', []],
      ['2026-05-16', []],
    ]);
    expect(isBandEntry(quiz)).toBe(true);
    expect(isBandEntry(lecture)).toBe(false);
  });

  it('lays out a day: overlapping entries side by side, points with a height of their own', () => {
    const day = '2026-05-12';
    const blocks = layoutDay(
      [
        timed('2026-05-12T01:00:00Z', '2026-05-12T03:00:00Z', 'a'), // 10:00–12:00 Tokyo
        timed('2026-05-12T02:00:00Z', '2026-05-12T04:00:00Z', 'b'), // 11:00–13:00
        timed('2026-05-12T03:30:00Z', '2026-05-12T04:30:00Z', 'c'), // 12:30–13:30, beside b
        timed('2026-05-12T08:00:00Z', '2026-05-12T08:00:00Z', 'due'), // 17:00, alone
      ],
      day,
      TOKYO,
    );
    const byKey = Object.fromEntries(blocks.map((b) => [b.entry.key, b]));
    expect(byKey.a).toMatchObject({ top: 600, height: 120, lane: 0, lanes: 2 });
    expect(byKey.b).toMatchObject({ top: 660, height: 120, lane: 1, lanes: 2 });
    expect(byKey.c).toMatchObject({ top: 750, lane: 0, lanes: 2 });
    expect(byKey.due).toMatchObject({ top: 1020, height: POINT_MINUTES, lane: 0, lanes: 1 });
  });

  it('clips entries to the day and draws a 23-hour day on the 24-hour grid', () => {
    const [overnight] = layoutDay(
      [timed('2026-05-11T13:00:00Z', '2026-05-12T01:00:00Z')],
      '2026-05-12',
      TOKYO,
    );
    expect(overnight).toMatchObject({ top: 0, height: 600 });
    // 8 March in New York has 23 hours; noon local (16:00Z) sits 11 real hours after midnight.
    const [noon] = layoutDay([timed('2026-03-08T16:00:00Z', '2026-03-08T17:00:00Z')], '2026-03-08', NEW_YORK);
    expect(noon!.top).toBeCloseTo((11 / 23) * 24 * 60);
  });

  it('lays entries of several days out as bars across a week, each in the first free row', () => {
    const week = weekDays('2026-05-13', 0); // 10–16 May
    const long = timed('2026-05-05T00:00:00Z', '2026-05-20T00:00:00Z', 'long'); // before and after the week
    const twoDays = timed('2026-05-11T00:00:00Z', '2026-05-12T03:00:00Z', 'two');
    const later = timed('2026-05-13T00:00:00Z', '2026-05-14T03:00:00Z', 'later');
    const oneDay = timed('2026-05-15T00:00:00Z', '2026-05-15T03:00:00Z', 'one');
    expect(isMultiDay(twoDays, TOKYO)).toBe(true);
    expect(isMultiDay(oneDay, TOKYO)).toBe(false);
    const bars = weekBars([later, twoDays, long], week, TOKYO);
    expect(
      bars.map((b) => [b.entry.key, b.start, b.end, b.lane, b.continuesBefore, b.continuesAfter]),
    ).toEqual([
      ['long', 0, 6, 0, true, true],
      ['two', 1, 2, 1, false, false],
      // Starts after `two` ends: it reuses row 1.
      ['later', 3, 4, 1, false, false],
    ]);
  });
});
