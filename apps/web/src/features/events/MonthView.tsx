import { Popover, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { CalendarEntry } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import classes from './Calendar.module.css';
import type { CalendarFormatters } from './calendar-format.ts';
import { dayKeyIn, firstOfMonth, monthGrid, type DayKey } from './calendar-dates.ts';
import { entriesByDay, isMultiDay, weekBars, type Bar } from './calendar-layout.ts';
import { EntryChip } from './EntryChip.tsx';

/** Rows a day cell gives to entries before "+N more"; of them at most `MAX_BAR_ROWS` for bars. */
const ROWS_PER_DAY = 3;
const MAX_BAR_ROWS = 2;
/** The padding and border between two day cells (Calendar.module.css), which a bar spans too. */
const CELL_GAP_PX = 5;

interface ViewProps {
  entries: CalendarEntry[];
  anchor: DayKey;
  today: DayKey;
  weekStart: number;
  format: CalendarFormatters;
  onOpenEvent: (id: number) => void;
}

/** The start time of a timed entry on the day it starts; nothing on the days it continues, or all-day. */
export function timeOnDay(entry: CalendarEntry, day: DayKey, format: CalendarFormatters): string | undefined {
  if (entry.all_day || dayKeyIn(new Date(entry.starts_at), format.timeZone) !== day) return undefined;
  return format.time(entry.starts_at);
}

/**
 * A month as a table of weeks. Entries of several days are bars across the days they cover (in up to
 * two rows); the others are listed in their day; what does not fit is behind "+N more".
 */
export function MonthView({ entries, anchor, today, weekStart, format, onOpenEvent }: ViewProps) {
  const { t } = useTranslation();
  const weeks = monthGrid(anchor, weekStart);
  const multiDay = entries.filter((entry) => isMultiDay(entry, format.timeZone));
  const singleDay = entries.filter((entry) => !isMultiDay(entry, format.timeZone));
  const everything = entriesByDay(entries, weeks.flat(), format.timeZone);
  const singles = entriesByDay(singleDay, weeks.flat(), format.timeZone);
  const month = firstOfMonth(anchor).slice(0, 7);

  const chip = (entry: CalendarEntry, day: DayKey) => (
    <EntryChip entry={entry} time={timeOnDay(entry, day, format)} onOpenEvent={onOpenEvent} />
  );

  const barSlot = (bars: Bar<CalendarEntry>[], lane: number, index: number, day: DayKey) => {
    const bar = bars.find((b) => b.lane === lane && b.start <= index && index <= b.end);
    if (!bar) return <div key={lane} className={classes.barSlot} aria-hidden />;
    if (bar.start !== index) {
      // Drawn by the cell where the bar starts; screen readers still hear it on every day it covers.
      return (
        <div key={lane} className={classes.barSlot}>
          <VisuallyHidden>
            {t(`calendar.kinds.${bar.entry.kind}`)}: {bar.entry.title} ({t('calendar.continued')})
          </VisuallyHidden>
        </div>
      );
    }
    const span = bar.end - bar.start + 1;
    return (
      <div key={lane} className={classes.barSlot}>
        <div
          className={classes.bar}
          data-before={bar.continuesBefore || undefined}
          data-after={bar.continuesAfter || undefined}
          style={{ width: `calc(${span} * 100% + ${(span - 1) * CELL_GAP_PX}px)` }}
        >
          {chip(bar.entry, day)}
        </div>
      </div>
    );
  };

  return (
    <table className={classes.month} aria-label={format.month(anchor)}>
      <thead>
        <tr>
          {weeks[0]!.map((day) => (
            <th key={day} scope="col">
              {format.weekday(day)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => {
          const bars = weekBars(multiDay, week, format.timeZone);
          const lanes = Math.min(
            MAX_BAR_ROWS,
            bars.reduce((most, bar) => Math.max(most, bar.lane + 1), 0),
          );
          return (
            <tr key={week[0]}>
              {week.map((day, index) => {
                const all = everything.get(day) ?? [];
                const own = singles.get(day) ?? [];
                const barsShown = bars.filter(
                  (b) => b.lane < lanes && b.start <= index && index <= b.end,
                ).length;
                const room = ROWS_PER_DAY - lanes;
                const overflow = barsShown + own.length < all.length || own.length > room;
                const ownShown = overflow ? own.slice(0, Math.max(0, room - 1)) : own;
                const hidden = all.length - barsShown - ownShown.length;
                return (
                  <td key={day} className={day.startsWith(month) ? undefined : classes.outside}>
                    <span
                      className={`${classes.dayNumber} ${day === today ? classes.today : ''}`}
                      aria-current={day === today ? 'date' : undefined}
                    >
                      <span aria-hidden>{format.dayNumber(day)}</span>
                      <VisuallyHidden>{format.fullDate(day)}</VisuallyHidden>
                    </span>
                    {Array.from({ length: lanes }, (_, lane) => barSlot(bars, lane, index, day))}
                    <ul className={classes.entryList}>
                      {ownShown.map((entry) => (
                        <li key={entry.key}>{chip(entry, day)}</li>
                      ))}
                    </ul>
                    {hidden > 0 ? (
                      <Popover width={260} position="bottom" shadow="md" withinPortal={false} trapFocus>
                        <Popover.Target>
                          <UnstyledButton
                            fz="xs"
                            px={4}
                            aria-label={t('calendar.moreLabel', {
                              count: all.length,
                              date: format.fullDate(day),
                            })}
                          >
                            {t('calendar.more', { count: hidden })}
                          </UnstyledButton>
                        </Popover.Target>
                        <Popover.Dropdown>
                          <Stack gap={4}>
                            <Text size="sm" fw={600}>
                              {format.fullDate(day)}
                            </Text>
                            <ul className={classes.entryList}>
                              {all.map((entry) => (
                                <li key={entry.key}>{chip(entry, day)}</li>
                              ))}
                            </ul>
                          </Stack>
                        </Popover.Dropdown>
                      </Popover>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
