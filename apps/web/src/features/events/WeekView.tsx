import { Text, VisuallyHidden } from '@mantine/core';
import type { CalendarEntry } from '@kadai/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Calendar.module.css';
import type { CalendarFormatters } from './calendar-format.ts';
import { minutesIntoDay, weekDays, type DayKey } from './calendar-dates.ts';
import { entriesByDay, isBandEntry, layoutDay, weekBars } from './calendar-layout.ts';
import { EntryChip } from './EntryChip.tsx';

/** Pixels per hour of the time grid (the CSS draws a line every 48 px). */
const HOUR_PX = 48;
const MINUTE_PX = HOUR_PX / 60;
/** The grid opens scrolled to 08:00, or to the first entry of the week if it is earlier. */
const OPEN_AT_MINUTES = 8 * 60;
/** Blocks lower than this show time and title on one line. */
const COMPACT_PX = 40;

interface Props {
  entries: CalendarEntry[];
  anchor: DayKey;
  today: DayKey;
  weekStart: number;
  format: CalendarFormatters;
  onOpenEvent: (id: number) => void;
  now: Date;
}

/**
 * A week as a time grid: a column per day, entries placed by time (overlapping ones side by side);
 * all-day entries and those lasting a day or more (quiz windows) in the band above the hours.
 */
export function WeekView({ entries, anchor, today, weekStart, format, onOpenEvent, now }: Props) {
  const { t } = useTranslation();
  const days = weekDays(anchor, weekStart);
  const bars = weekBars(entries.filter(isBandEntry), days, format.timeZone);
  const lanes = bars.reduce((most, bar) => Math.max(most, bar.lane + 1), 1);
  const timed = entriesByDay(
    entries.filter((e) => !isBandEntry(e)),
    days,
    format.timeZone,
  );
  const layouts = new Map(days.map((day) => [day, layoutDay(timed.get(day) ?? [], day, format.timeZone)]));
  const earliest = Math.min(
    OPEN_AT_MINUTES,
    ...[...layouts.values()].flat().map((block) => Math.max(0, block.top - 30)),
  );
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (body.current) body.current.scrollTop = earliest * MINUTE_PX;
  }, [anchor, earliest]);

  return (
    <div className={classes.weekScroll}>
      <div className={classes.week}>
        <div className={classes.weekHead} aria-hidden>
          <div />
          {days.map((day) => (
            <div key={day} className={classes.weekHeadDay}>
              <Text size="xs" c="dimmed" component="span" display="block">
                {format.weekday(day)}
              </Text>
              <span className={`${classes.dayNumber} ${day === today ? classes.today : ''}`}>
                {format.dayNumber(day)}
              </span>
            </div>
          ))}
        </div>
        {bars.length > 0 ? (
          <div className={classes.weekBand} role="group" aria-label={t('calendar.allDay')}>
            <Text
              size="xs"
              c="dimmed"
              ta="end"
              pr={6}
              style={{ gridColumn: 1, gridRow: `1 / span ${lanes}` }}
              aria-hidden
            >
              {t('calendar.allDay')}
            </Text>
            {bars.map((bar) => (
              <div
                key={bar.entry.key}
                className={classes.bar}
                data-before={bar.continuesBefore || undefined}
                data-after={bar.continuesAfter || undefined}
                style={{ gridColumn: `${bar.start + 2} / ${bar.end + 3}`, gridRow: bar.lane + 1 }}
              >
                <EntryChip entry={bar.entry} onOpenEvent={onOpenEvent} />
              </div>
            ))}
          </div>
        ) : null}
        <div
          className={classes.weekBody}
          ref={body}
          tabIndex={0}
          role="region"
          aria-label={t('calendar.hours')}
        >
          <div className={classes.hours} aria-hidden>
            {Array.from({ length: 23 }, (_, i) => (
              <span key={i} className={classes.hourLabel} style={{ top: (i + 1) * HOUR_PX }}>
                {String(i + 1).padStart(2, '0')}:00
              </span>
            ))}
          </div>
          {days.map((day) => (
            <div
              key={day}
              role="group"
              aria-label={format.fullDate(day)}
              className={`${classes.dayColumn} ${day === today ? classes.todayColumn : ''}`}
              aria-current={day === today ? 'date' : undefined}
            >
              {day === today ? (
                <div
                  className={classes.nowLine}
                  style={{ top: minutesIntoDay(now, format.timeZone) * MINUTE_PX }}
                  aria-hidden
                />
              ) : null}
              <ul className={classes.entryList}>
                {(layouts.get(day) ?? []).map((block) => (
                  <li
                    key={block.entry.key}
                    className={classes.block}
                    data-compact={block.height * MINUTE_PX < COMPACT_PX || undefined}
                    style={{
                      top: block.top * MINUTE_PX,
                      height: block.height * MINUTE_PX,
                      left: `${(block.lane / block.lanes) * 100}%`,
                      width: `${100 / block.lanes}%`,
                    }}
                  >
                    <EntryChip
                      entry={block.entry}
                      time={timeLabel(block.entry, format)}
                      onOpenEvent={onOpenEvent}
                    />
                  </li>
                ))}
              </ul>
              {(layouts.get(day) ?? []).length === 0 ? (
                <VisuallyHidden>{t('calendar.nothingThisDay')}</VisuallyHidden>
              ) : null}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function timeLabel(entry: CalendarEntry, format: CalendarFormatters): string {
  return entry.starts_at === entry.ends_at
    ? format.time(entry.starts_at)
    : format.timeRange(entry.starts_at, entry.ends_at);
}
