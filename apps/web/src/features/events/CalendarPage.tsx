import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  LoadingOverlay,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { CourseEvent } from '@kadai/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import {
  CALENDAR_VIEWS,
  browserTimeZone,
  dayKeyIn,
  isDayKey,
  periodOf,
  shiftDay,
  weekStartOf,
  type CalendarView,
  type DayKey,
} from './calendar-dates.ts';
import { useCalendarFormatters } from './calendar-format.ts';
import { EventDetailsModal } from './EventDetailsModal.tsx';
import { EventEditorModal } from './EventEditorModal.tsx';
import { calendarQuery } from './events.queries.ts';
import { Legend } from './Legend.tsx';
import { ListView } from './ListView.tsx';
import { MonthView } from './MonthView.tsx';
import { SubscribeSection } from './SubscribeSection.tsx';
import { WeekView } from './WeekView.tsx';

const MINUTE_MS = 60_000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), MINUTE_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * The course calendar (spec §2 Calendar): month, week and list views of events, assignment deadlines
 * and quiz windows in the reader's time zone; editors add and change events; everyone may subscribe.
 * The view, the day shown and an open event live in the URL (`?view=week&date=2026-05-12&event=3`).
 */
export function CalendarPage() {
  const { t, i18n } = useTranslation();
  const course = useCourse();
  const canManage = course.my_role === 'editor' || course.my_role === 'staff';
  const timeZone = useMemo(() => browserTimeZone(), []);
  const format = useCalendarFormatters(timeZone);
  const weekStart = weekStartOf(i18n.language);
  const now = useNow();
  const today = dayKeyIn(now, timeZone);

  const [searchParams, setSearchParams] = useSearchParams();
  const viewParam = searchParams.get('view');
  // A month grid is too narrow to read on a phone: there the list is the default.
  const isPhone = useMediaQuery('(max-width: 36em)');
  const defaultView: CalendarView = isPhone ? 'list' : 'month';
  const view: CalendarView = CALENDAR_VIEWS.find((v) => v === viewParam) ?? defaultView;
  const dateParam = searchParams.get('date');
  const anchor: DayKey = isDayKey(dateParam) ? dateParam : today;
  const openEventId = Number(searchParams.get('event') ?? '') || null;
  const [editing, setEditing] = useState<{ event: CourseEvent | null } | null>(null);

  const setParams = (changes: Record<string, string | null>) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  const period = periodOf(view, anchor, weekStart, timeZone);
  const range = { from: period.from.toISOString(), to: period.to.toISOString() };
  const calendar = useQuery(calendarQuery(course.id, range));
  const entries = calendar.data?.results ?? [];

  const label = view === 'week' ? format.range(period.days[0]!, period.days.at(-1)!) : format.month(anchor);
  const unit = view === 'week' ? 'week' : 'month';
  const openEvent = (id: number) => setParams({ event: String(id) });
  const viewProps = { entries, anchor, today, weekStart, format, onOpenEvent: openEvent };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.calendar')}</Title>
        {canManage ? (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setEditing({ event: null })}
          >
            {t('calendar.newEvent')}
          </Button>
        ) : null}
      </Group>

      <Group justify="space-between" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={t(`calendar.previous.${unit}`)} withinPortal={false}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t(`calendar.previous.${unit}`)}
              onClick={() => setParams({ date: shiftDay(view, anchor, -1) })}
            >
              <IconChevronLeft size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Button variant="default" onClick={() => setParams({ date: null })} disabled={anchor === today}>
            {t('calendar.today')}
          </Button>
          <Tooltip label={t(`calendar.next.${unit}`)} withinPortal={false}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t(`calendar.next.${unit}`)}
              onClick={() => setParams({ date: shiftDay(view, anchor, 1) })}
            >
              <IconChevronRight size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Title order={2} size="h3" ml="xs" aria-live="polite">
            {label}
          </Title>
        </Group>
        <SegmentedControl
          aria-label={t('calendar.viewLabel')}
          value={view}
          onChange={(value) => setParams({ view: value === defaultView ? null : value })}
          data={CALENDAR_VIEWS.map((value) => ({ value, label: t(`calendar.views.${value}`) }))}
        />
      </Group>

      <Stack gap="xs">
        <Legend />
        <Text size="xs" c="dimmed">
          {t('calendar.timeZone', { zone: format.zone })}
        </Text>
      </Stack>

      {calendar.data?.truncated ? (
        <Alert color="orange" variant="light">
          {t('calendar.truncated')}
        </Alert>
      ) : null}

      {calendar.isError && !calendar.data ? (
        <ErrorState error={calendar.error} onRetry={() => void calendar.refetch()} />
      ) : !calendar.data ? (
        <Skeleton height={480} aria-busy="true" />
      ) : (
        <Box pos="relative" aria-busy={calendar.isPlaceholderData}>
          <LoadingOverlay
            visible={calendar.isPlaceholderData}
            overlayProps={{ blur: 1 }}
            loaderProps={{ 'aria-label': t('common.loading') }}
          />
          {view === 'month' ? <MonthView {...viewProps} /> : null}
          {view === 'week' ? <WeekView {...viewProps} now={now} /> : null}
          {view === 'list' ? <ListView {...viewProps} days={period.days} /> : null}
        </Box>
      )}

      <SubscribeSection />

      {openEventId !== null ? (
        <EventDetailsModal
          courseId={course.id}
          eventId={openEventId}
          canManage={canManage}
          format={format}
          onEdit={(event) => {
            setParams({ event: null });
            setEditing({ event });
          }}
          onClose={() => setParams({ event: null })}
        />
      ) : null}
      {editing ? (
        <EventEditorModal
          courseId={course.id}
          event={editing.event}
          day={anchor}
          timeZone={timeZone}
          zoneLabel={format.zone}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
