import type { CourseEvent, EventKind, EventReplace } from '@kadai/contracts';
import {
  allDayInstant,
  dayKeyIn,
  fromZonedInput,
  isDayKey,
  toZonedInput,
  utcDayKey,
  zonedInstant,
  type DayKey,
} from './calendar-dates.ts';

/**
 * What the event editor edits. Timed events use `datetime-local` values in the reader's time zone;
 * all-day events use dates (first and last day), stored as 00:00 UTC of each.
 */
export interface EventFormValues {
  title: string;
  kind: EventKind;
  all_day: boolean;
  starts_at: string;
  ends_at: string;
  start_date: string;
  end_date: string;
  location: string;
  description: string;
}

const HOUR_MINUTES = 60;

/** A new event on `day`: the next full hour (or 09:00 on another day), one hour long. */
export function emptyEventValues(day: DayKey, timeZone: string, now: Date = new Date()): EventFormValues {
  const today = dayKeyIn(now, timeZone);
  const nextHour = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);
  const start =
    day === today && dayKeyIn(nextHour, timeZone) === today
      ? nextHour
      : zonedInstant(day, 9 * HOUR_MINUTES, timeZone);
  const end = new Date(start.getTime() + 3_600_000);
  return {
    title: '',
    kind: 'lecture',
    all_day: false,
    starts_at: toZonedInput(start.toISOString(), timeZone),
    ends_at: toZonedInput(end.toISOString(), timeZone),
    start_date: day,
    end_date: day,
    location: '',
    description: '',
  };
}

export function eventValues(event: CourseEvent, timeZone: string): EventFormValues {
  if (event.all_day) {
    const first = utcDayKey(new Date(event.starts_at));
    const last = utcDayKey(new Date(event.ends_at));
    const start = zonedInstant(first, 9 * HOUR_MINUTES, timeZone);
    return {
      title: event.title,
      kind: event.kind,
      all_day: true,
      starts_at: toZonedInput(start.toISOString(), timeZone),
      ends_at: toZonedInput(new Date(start.getTime() + 3_600_000).toISOString(), timeZone),
      start_date: first,
      end_date: last,
      location: event.location,
      description: event.description,
    };
  }
  return {
    title: event.title,
    kind: event.kind,
    all_day: false,
    starts_at: toZonedInput(event.starts_at, timeZone),
    ends_at: toZonedInput(event.ends_at, timeZone),
    start_date: dayKeyIn(new Date(event.starts_at), timeZone),
    end_date: dayKeyIn(new Date(event.ends_at), timeZone),
    location: event.location,
    description: event.description,
  };
}

/** The start and end the form means, as the API takes them; null where a value is missing or bad. */
export function formTimes(
  values: Pick<EventFormValues, 'all_day' | 'starts_at' | 'ends_at' | 'start_date' | 'end_date'>,
  timeZone: string,
): { starts_at: string | null; ends_at: string | null } {
  if (values.all_day) {
    return {
      starts_at: isDayKey(values.start_date) ? allDayInstant(values.start_date) : null,
      ends_at: isDayKey(values.end_date) ? allDayInstant(values.end_date) : null,
    };
  }
  return {
    starts_at: fromZonedInput(values.starts_at, timeZone),
    ends_at: fromZonedInput(values.ends_at, timeZone),
  };
}

/** The request body (PUT and POST alike); call only with values the form has validated. */
export function toEventBody(values: EventFormValues, timeZone: string): EventReplace {
  const times = formTimes(values, timeZone);
  return {
    title: values.title.trim(),
    kind: values.kind,
    all_day: values.all_day,
    starts_at: times.starts_at ?? '',
    ends_at: times.ends_at ?? '',
    location: values.location.trim(),
    description: values.description,
  };
}

type TimeFields = Pick<EventFormValues, 'starts_at' | 'ends_at' | 'start_date' | 'end_date'>;

/** The all-day switch keeps the days the timed values were on, and the other way round. */
export function switchAllDay(values: EventFormValues, allDay: boolean, timeZone: string): TimeFields {
  const kept: TimeFields = {
    starts_at: values.starts_at,
    ends_at: values.ends_at,
    start_date: values.start_date,
    end_date: values.end_date,
  };
  if (allDay) {
    const start = fromZonedInput(values.starts_at, timeZone);
    const end = fromZonedInput(values.ends_at, timeZone);
    return {
      ...kept,
      start_date: start ? dayKeyIn(new Date(start), timeZone) : values.start_date,
      end_date: end ? dayKeyIn(new Date(end), timeZone) : values.end_date,
    };
  }
  if (!isDayKey(values.start_date)) return kept;
  const start = zonedInstant(values.start_date, 9 * HOUR_MINUTES, timeZone);
  const lastDay = isDayKey(values.end_date) ? values.end_date : values.start_date;
  const end =
    lastDay === values.start_date
      ? new Date(start.getTime() + 3_600_000)
      : zonedInstant(lastDay, 10 * HOUR_MINUTES, timeZone);
  return {
    ...kept,
    starts_at: toZonedInput(start.toISOString(), timeZone),
    ends_at: toZonedInput(end.toISOString(), timeZone),
  };
}
