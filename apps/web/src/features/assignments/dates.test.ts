import { describe, expect, it } from 'vitest';
import { availabilityOf, defaultWindow, fromLocalInput, toLocalInput } from './dates.ts';
import { inZone } from '../../test/zone.ts';

const DATES = {
  opens_at: '2026-04-01T00:00:00.000Z',
  due_at: '2026-04-08T00:00:00.000Z',
  late_until: '2026-04-10T00:00:00.000Z',
};

describe('availabilityOf', () => {
  it('is upcoming, open, late, then closed', () => {
    expect(availabilityOf(DATES, new Date('2026-03-31T23:59:59Z'))).toBe('upcoming');
    expect(availabilityOf(DATES, new Date('2026-04-01T00:00:00Z'))).toBe('open');
    expect(availabilityOf(DATES, new Date('2026-04-08T00:00:00Z'))).toBe('open');
    expect(availabilityOf(DATES, new Date('2026-04-09T00:00:00Z'))).toBe('late');
    expect(availabilityOf(DATES, new Date('2026-04-10T00:00:01Z'))).toBe('closed');
  });

  it('closes at the due date without a late cut-off', () => {
    expect(availabilityOf({ ...DATES, late_until: null }, new Date('2026-04-09T00:00:00Z'))).toBe('closed');
  });
});

describe('local date inputs', () => {
  it('round-trips an instant through the input value', () => {
    const iso = '2026-04-08T14:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
  });

  it('treats empty and invalid values as none', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('nonsense')).toBe('');
  });
});

describe('the default window of a new assignment or quiz', () => {
  it('opens this minute, so it is open at once, and closes at 23:59 a week from today', () => {
    inZone('Asia/Tokyo', () => {
      const now = new Date('2026-04-01T10:20:45+09:00');
      const range = defaultWindow('Asia/Tokyo', now);
      expect(range).toEqual({ opens: '2026-04-01T10:20', closes: '2026-04-08T23:59' });
      const opens = Date.parse(fromLocalInput(range.opens) ?? '');
      expect(opens).toBeLessThanOrEqual(now.getTime());
      expect(
        availabilityOf(
          { opens_at: new Date(opens).toISOString(), due_at: '2026-04-08T14:59:00.000Z', late_until: null },
          now,
        ),
      ).toBe('open');
      expect(fromLocalInput(range.closes)).toBe('2026-04-08T14:59:00.000Z');
    });
  });

  it('counts the week from the local date, late in the evening and across a month', () => {
    inZone('Asia/Tokyo', () => {
      // 23:30 on 30 April in Tokyo is still 30 April there (14:30 UTC).
      expect(defaultWindow('Asia/Tokyo', new Date('2026-04-30T14:30:00Z'))).toEqual({
        opens: '2026-04-30T23:30',
        closes: '2026-05-07T23:59',
      });
    });
  });

  it('still closes at 23:59 when daylight saving starts during the week', () => {
    inZone('America/New_York', () => {
      // Clocks go forward on 8 March 2026 in New York: 23:59 of 12 March is EDT (UTC−4).
      const range = defaultWindow('America/New_York', new Date('2026-03-05T12:00:00-05:00'));
      expect(range).toEqual({ opens: '2026-03-05T12:00', closes: '2026-03-12T23:59' });
      expect(fromLocalInput(range.closes)).toBe('2026-03-13T03:59:00.000Z');
    });
  });

  it('closes at 23:59 in the course’s zone, shown in the browser’s', () => {
    inZone('America/New_York', () => {
      // 21:20 on 31 March in New York is 10:20 on 1 April in Tokyo; 23:59 there on 8 April is 10:59 here.
      const range = defaultWindow('Asia/Tokyo', new Date('2026-04-01T10:20:45+09:00'));
      expect(range).toEqual({ opens: '2026-03-31T21:20', closes: '2026-04-08T10:59' });
      expect(fromLocalInput(range.closes)).toBe('2026-04-08T14:59:00.000Z');
    });
  });
});
