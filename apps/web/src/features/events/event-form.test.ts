import { describe, expect, it } from 'vitest';
import type { CourseEvent } from '@kadai/contracts';
import { emptyEventValues, eventValues, formTimes, switchAllDay, toEventBody } from './event-form.ts';

const TOKYO = 'Asia/Tokyo';

const EVENT: CourseEvent = {
  id: 1,
  course_id: 1,
  title: 'Lecture 1',
  description: 'Intro',
  kind: 'lecture',
  starts_at: '2026-05-12T01:40:00.000Z',
  ends_at: '2026-05-12T03:10:00.000Z',
  all_day: false,
  location: 'Room 201',
  created_by: 2,
  created_at: '2026-05-01T00:00:00.000Z',
  updated_at: '2026-05-01T00:00:00.000Z',
};

describe('event form', () => {
  it('starts a new event at the next full hour today, or at 09:00 on another day', () => {
    const now = new Date('2026-05-12T01:20:00Z'); // 10:20 in Tokyo
    expect(emptyEventValues('2026-05-12', TOKYO, now)).toMatchObject({
      starts_at: '2026-05-12T11:00',
      ends_at: '2026-05-12T12:00',
      all_day: false,
      start_date: '2026-05-12',
    });
    expect(emptyEventValues('2026-05-20', TOKYO, now)).toMatchObject({
      starts_at: '2026-05-20T09:00',
      ends_at: '2026-05-20T10:00',
    });
  });

  it('edits a timed event in the reader’s zone and sends it back unchanged', () => {
    const values = eventValues(EVENT, TOKYO);
    expect(values).toMatchObject({ starts_at: '2026-05-12T10:40', ends_at: '2026-05-12T12:10' });
    expect(toEventBody(values, TOKYO)).toEqual({
      title: 'Lecture 1',
      kind: 'lecture',
      all_day: false,
      starts_at: EVENT.starts_at,
      ends_at: EVENT.ends_at,
      location: 'Room 201',
      description: 'Intro',
    });
  });

  it('sends all-day events as 00:00 UTC of the first and last day', () => {
    const values = {
      ...eventValues(EVENT, TOKYO),
      all_day: true,
      start_date: '2026-05-12',
      end_date: '2026-05-14',
    };
    expect(formTimes(values, TOKYO)).toEqual({
      starts_at: '2026-05-12T00:00:00.000Z',
      ends_at: '2026-05-14T00:00:00.000Z',
    });
    const stored = {
      ...EVENT,
      all_day: true,
      starts_at: '2026-05-12T00:00:00.000Z',
      ends_at: '2026-05-14T00:00:00.000Z',
    };
    // Read back in New York it is still 12–14 May.
    expect(eventValues(stored, 'America/New_York')).toMatchObject({
      start_date: '2026-05-12',
      end_date: '2026-05-14',
    });
  });

  it('keeps the days when switching between timed and all-day', () => {
    const timed = eventValues(EVENT, TOKYO);
    const dates = switchAllDay(timed, true, TOKYO);
    expect(dates).toMatchObject({ start_date: '2026-05-12', end_date: '2026-05-12' });
    const back = switchAllDay({ ...timed, ...dates, end_date: '2026-05-13' }, false, TOKYO);
    expect(back).toMatchObject({ starts_at: '2026-05-12T09:00', ends_at: '2026-05-13T10:00' });
  });

  it('reports missing or bad times as null', () => {
    const values = { ...eventValues(EVENT, TOKYO), starts_at: '', ends_at: '2026-02-30T10:00' };
    expect(formTimes(values, TOKYO)).toEqual({ starts_at: null, ends_at: null });
  });
});
