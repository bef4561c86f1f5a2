import { describe, expect, it } from 'vitest';
import { availabilityOf, fromLocalInput, toLocalInput } from './dates.ts';

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
