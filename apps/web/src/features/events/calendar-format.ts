import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatDateTimeRange, formatTime, formatTimeRange } from '../../i18n/format.ts';
import { browserTimeZone, parseDayKey, type DayKey } from './calendar-dates.ts';

/**
 * The calendar's dates and times in the reader's language and time zone. Day keys are civil dates and
 * are formatted in UTC, where they were built, so no zone can move them to another day.
 */
export function calendarFormatters(language: string, timeZone: string) {
  const keyDate = (key: DayKey) => {
    const { year, month, day } = parseDayKey(key);
    return new Date(Date.UTC(year, month - 1, day));
  };
  const onDay = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' });
  const month = onDay({ year: 'numeric', month: 'long' });
  const weekday = onDay({ weekday: 'short' });
  const full = onDay({ dateStyle: 'full' });
  const medium = onDay({ year: 'numeric', month: 'short', day: 'numeric' });
  const monthDay = onDay({ month: 'short', day: 'numeric' });
  const zoneName =
    new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'long' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;

  return {
    timeZone,
    /** "May 2026", "2026年5月". */
    month: (key: DayKey) => month.format(keyDate(key)),
    /** "May 10 – 16, 2026", "2026年5月10日～16日". */
    range: (first: DayKey, last: DayKey) => medium.formatRange(keyDate(first), keyDate(last)),
    weekday: (key: DayKey) => weekday.format(keyDate(key)),
    /** "Sunday, May 10, 2026", "2026年5月10日日曜日". */
    fullDate: (key: DayKey) => full.format(keyDate(key)),
    monthDay: (key: DayKey) => monthDay.format(keyDate(key)),
    dayNumber: (key: DayKey) => String(parseDayKey(key).day),
    // Times and moments in the app's one date-time format (i18n/format.ts): 24-hour, like the week
    // grid's hour axis, in both languages.
    /** "01:40", "10:40" in the reader's zone. */
    time: (iso: string) => formatTime(iso, language, { timeZone }),
    /** Two times of one day: "10:40 – 12:10", "10:40〜12:10". */
    timeRange: (from: string, to: string) => formatTimeRange(from, to, language, { timeZone }),
    /** A deadline or any moment with the zone named: "Tue, May 12, 2026, 10:40 GMT+9". */
    moment: (iso: string) => formatDateTime(iso, language, { timeZone, zone: true }),
    /** From one moment to another, the zone once: "Tue, Nov 10, 2026, 10:40 – 12:10 GMT+9". */
    momentRange: (from: string, to: string) =>
      formatDateTimeRange(from, to, language, { timeZone, zone: true }),
    /** Days and times (the zone is named under the legend): "Wed, Nov 11, 2026, 01:02 – Wed, Nov 18, 2026, 01:02". */
    span: (from: string, to: string) => formatDateTimeRange(from, to, language, { timeZone }),
    /** Days, short: "Nov 11 – 18". */
    daySpan: (first: DayKey, last: DayKey) => monthDay.formatRange(keyDate(first), keyDate(last)),
    /** "Japan Standard Time (Asia/Tokyo)". */
    zone: zoneName === timeZone ? timeZone : `${zoneName} (${timeZone})`,
  };
}

export type CalendarFormatters = ReturnType<typeof calendarFormatters>;

export function useCalendarFormatters(timeZone: string = browserTimeZone()): CalendarFormatters {
  const { i18n } = useTranslation();
  return useMemo(() => calendarFormatters(i18n.language, timeZone), [i18n.language, timeZone]);
}
