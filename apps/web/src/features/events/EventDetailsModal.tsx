import { Alert, Badge, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconClock, IconMapPin, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { CourseEvent } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import type { CalendarFormatters } from './calendar-format.ts';
import { utcDayKey } from './calendar-dates.ts';
import { ENTRY_STYLES } from './entry-style.ts';
import { eventQuery } from './events.queries.ts';
import { useEventMutations } from './useEventMutations.tsx';

/** When an event happens, in words: dates for all-day events, times with the zone otherwise. */
export function eventWhen(event: CourseEvent, format: CalendarFormatters, allDay: string): string {
  if (event.all_day) {
    const first = utcDayKey(new Date(event.starts_at));
    const last = utcDayKey(new Date(event.ends_at));
    return `${first === last ? format.fullDate(first) : format.range(first, last)} (${allDay})`;
  }
  if (event.starts_at === event.ends_at) return format.moment(event.starts_at);
  return format.momentRange(event.starts_at, event.ends_at);
}

/** An event's details (from the calendar or a feed link, `?event=`); editors may edit or delete it. */
export function EventDetailsModal({
  courseId,
  eventId,
  canManage,
  format,
  onEdit,
  onClose,
}: {
  courseId: number;
  eventId: number;
  canManage: boolean;
  format: CalendarFormatters;
  onEdit: (event: CourseEvent) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const query = useQuery(eventQuery(courseId, eventId));
  const { confirmDelete, remove } = useEventMutations(courseId);
  const event = query.data;

  let body;
  if (query.isError) {
    body = (
      <Alert color="red" role="alert">
        {errorMessage(query.error, t)}
      </Alert>
    );
  } else if (!event) {
    body = (
      <Center py="lg">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  } else {
    const { color, icon: Icon } = ENTRY_STYLES[event.kind];
    body = (
      <Stack gap="sm">
        <Badge variant="light" color={color} leftSection={<Icon size={14} aria-hidden />} w="fit-content">
          {t(`calendar.kinds.${event.kind}`)}
        </Badge>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconClock size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm">
            <Text span fw={600}>
              {t('calendar.details.when')}:{' '}
            </Text>
            {eventWhen(event, format, t('calendar.allDay'))}
          </Text>
        </Group>
        {event.location ? (
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconMapPin size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm">
              <Text span fw={600}>
                {t('calendar.details.where')}:{' '}
              </Text>
              {event.location}
            </Text>
          </Group>
        ) : null}
        {event.description ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {event.description}
          </Text>
        ) : null}
        <Group justify="space-between" mt="sm">
          {canManage ? (
            <Group gap="xs">
              <Button
                variant="light"
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => onEdit(event)}
              >
                {t('calendar.details.edit')}
              </Button>
              <Button
                color="red"
                variant="outline"
                leftSection={<IconTrash size={16} aria-hidden />}
                loading={remove.isPending}
                onClick={() => confirmDelete(event, onClose)}
              >
                {t('calendar.editor.delete')}
              </Button>
            </Group>
          ) : (
            <div />
          )}
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal opened onClose={onClose} title={event?.title ?? t('calendar.details.title')} size="md">
      {body}
    </Modal>
  );
}
