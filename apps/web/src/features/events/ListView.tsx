import { Anchor, Badge, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarOff, IconMapPin } from '@tabler/icons-react';
import type { CalendarEntry } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Calendar.module.css';
import type { CalendarFormatters } from './calendar-format.ts';
import { type DayKey } from './calendar-dates.ts';
import { entryDays } from './calendar-layout.ts';
import { entryPage } from './EntryChip.tsx';
import { ENTRY_STYLES } from './entry-style.ts';

/** When an entry happens, for the list: all day, a moment, a span of one day, or days and times. */
export function whenText(entry: CalendarEntry, format: CalendarFormatters, allDay: string): string {
  const { first, last } = entryDays(entry, format.timeZone);
  if (entry.all_day) return first === last ? allDay : `${format.daySpan(first, last)} (${allDay})`;
  if (entry.starts_at === entry.ends_at) return format.time(entry.starts_at);
  if (first === last) return format.timeRange(entry.starts_at, entry.ends_at);
  return format.span(entry.starts_at, entry.ends_at);
}

/** Each entry once, under the first day of the period it touches (the day it starts, or the first day). */
export function entriesByFirstDay(
  entries: readonly CalendarEntry[],
  days: readonly DayKey[],
  timeZone: string,
): Map<DayKey, CalendarEntry[]> {
  const byDay = new Map<DayKey, CalendarEntry[]>(days.map((day) => [day, []]));
  for (const entry of entries) {
    const { first, last } = entryDays(entry, timeZone);
    const day = days.find((candidate) => candidate >= first && candidate <= last);
    if (day !== undefined) byDay.get(day)!.push(entry);
  }
  return byDay;
}

/** The period's days that have entries, each with the entries starting then as rows: time, kind, title, place. */
export function ListView({
  entries,
  days,
  today,
  format,
  onOpenEvent,
}: {
  entries: CalendarEntry[];
  days: DayKey[];
  today: DayKey;
  format: CalendarFormatters;
  onOpenEvent: (id: number) => void;
}) {
  const { t } = useTranslation();
  const byDay = entriesByFirstDay(entries, days, format.timeZone);
  const busyDays = days.filter((day) => (byDay.get(day) ?? []).length > 0);
  if (busyDays.length === 0) {
    return (
      <EmptyState
        icon={<IconCalendarOff size={32} aria-hidden />}
        withIndicatorBackground
        title={t('calendar.empty.title')}
        description={t('calendar.empty.list')}
        py="xl"
      />
    );
  }
  return (
    <Stack gap="md">
      {busyDays.map((day) => (
        <section key={day} aria-labelledby={`day-${day}`}>
          <Title order={3} size="h5" id={`day-${day}`} mb={4}>
            {format.fullDate(day)}
            {day === today ? (
              <Badge ml="xs" size="sm" variant="light">
                {t('calendar.today')}
              </Badge>
            ) : null}
          </Title>
          <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
            {(byDay.get(day) ?? []).map((entry) => (
              <ListRow
                key={entry.key}
                entry={entry}
                when={whenText(entry, format, t('calendar.allDay'))}
                onOpenEvent={onOpenEvent}
              />
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}

function ListRow({
  entry,
  when,
  onOpenEvent,
}: {
  entry: CalendarEntry;
  when: string;
  onOpenEvent: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { color, icon: Icon } = ENTRY_STYLES[entry.kind];
  const page = entryPage(entry);
  return (
    <Group
      component="li"
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      className={classes.listRow}
      data-color={color}
    >
      <Text size="sm" className={classes.listTime}>
        {when}
      </Text>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="nowrap">
          <Icon size={16} className={classes.entryIcon} aria-hidden />
          <Text size="xs" fw={600}>
            {t(`calendar.kinds.${entry.kind}`)}
          </Text>
        </Group>
        {page !== null ? (
          <Anchor component={Link} to={page} fw={600} size="sm" c="inherit" underline="always">
            {entry.title}
          </Anchor>
        ) : (
          <Anchor
            component="button"
            type="button"
            fw={600}
            size="sm"
            c="inherit"
            underline="always"
            ta="start"
            onClick={() => entry.event_id !== null && onOpenEvent(entry.event_id)}
          >
            {entry.title}
          </Anchor>
        )}
        {entry.location ? (
          <Group gap={4} wrap="nowrap">
            <IconMapPin size={14} aria-hidden />
            <Text size="xs">{entry.location}</Text>
          </Group>
        ) : null}
      </Stack>
    </Group>
  );
}
