import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CourseEvent, EventReplace } from '@kadai/contracts';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import { Text } from '@mantine/core';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { createEvent, deleteEvent, replaceEvent } from './events.api.ts';
import { calendarKeys } from './events.queries.ts';

/** Saving (create or replace) and deleting events; both refresh the course's calendar. */
export function useEventMutations(courseId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: calendarKeys.course(courseId) });

  const save = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: EventReplace }) =>
      id === null ? createEvent(courseId, body) : replaceEvent(courseId, id, body),
    onSuccess: async (saved, { id }) => {
      queryClient.setQueryData(calendarKeys.event(courseId, saved.id), saved);
      await refresh();
      notifySuccess(
        t(id === null ? 'calendar.editor.created' : 'calendar.editor.saved', { title: saved.title }),
      );
    },
  });

  const remove = useMutation({
    mutationFn: (event: CourseEvent) => deleteEvent(courseId, event.id),
    onSuccess: async (_, event) => {
      queryClient.removeQueries({ queryKey: calendarKeys.event(courseId, event.id) });
      await refresh();
      notifySuccess(t('calendar.editor.deleted', { title: event.title }));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('calendar.editor.deleteFailed') }),
  });

  /** Asks 'Sure to delete the data?' first. */
  const confirmDelete = (event: CourseEvent, onDeleted: () => void) =>
    modals.openConfirmModal({
      title: t('calendar.editor.delete'),
      children: (
        <>
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600} mt="xs">
            {event.title}
          </Text>
        </>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(event, { onSuccess: onDeleted }),
    });

  return { save, remove, confirmDelete };
}
