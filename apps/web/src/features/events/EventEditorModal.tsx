import {
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { EVENT_KINDS, type CourseEvent } from '@kadai/contracts';
import { useEffect, useRef } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import type { DayKey } from './calendar-dates.ts';
import {
  emptyEventValues,
  eventValues,
  formTimes,
  switchAllDay,
  toEventBody,
  type EventFormValues,
} from './event-form.ts';
import { useEventMutations } from './useEventMutations.tsx';

const MAX_TITLE = 200;
const MAX_LOCATION = 200;
const MAX_DESCRIPTION = 10_000;

const SAME_FIELDS: Partial<Record<string, Path<EventFormValues>>> = {
  title: 'title',
  kind: 'kind',
  location: 'location',
  description: 'description',
};

/** Where the server's message for an API field goes on the form (all-day events edit dates). */
function formField(apiField: string, allDay: boolean): Path<EventFormValues> | null {
  if (apiField === 'starts_at') return allDay ? 'start_date' : 'starts_at';
  if (apiField === 'ends_at') return allDay ? 'end_date' : 'ends_at';
  return SAME_FIELDS[apiField] ?? null;
}

/** Add an event (`event` null, on `day`) or change one, in a dialog. */
export function EventEditorModal({
  courseId,
  event,
  day,
  timeZone,
  zoneLabel,
  onClose,
}: {
  courseId: number;
  event: CourseEvent | null;
  day: DayKey;
  timeZone: string;
  zoneLabel: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const form = useForm<EventFormValues>({
    defaultValues: event ? eventValues(event, timeZone) : emptyEventValues(day, timeZone),
    mode: 'onTouched',
  });
  const { save, confirmDelete, remove } = useEventMutations(courseId);
  const allDay = useWatch({ control: form.control, name: 'all_day' });
  const errors = form.formState.errors;

  const confirmClose = () => {
    if (!form.formState.isDirty) {
      onClose();
      return;
    }
    modals.openConfirmModal({
      title: t('calendar.editor.discardTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('calendar.editor.discard'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };
  const closeRef = useRef(confirmClose);
  useEffect(() => {
    closeRef.current = confirmClose;
  });

  const submit = form.handleSubmit((values) =>
    save.mutate(
      { id: event?.id ?? null, body: toEventBody(values, timeZone) },
      {
        onSuccess: onClose,
        onError: (error) => {
          let applied = false;
          if (isApiError(error, 400)) {
            for (const key of Object.keys(error.body)) {
              const field = formField(key, values.all_day);
              const message = error.firstFieldMessage(key);
              if (field && message) {
                form.setError(field, { type: 'server', message });
                applied = true;
              }
            }
          }
          if (!applied) notifyError(errorMessage(error, t), { title: t('calendar.editor.saveFailed') });
        },
      },
    ),
  );

  const endRule = (value: string) => {
    if (!value) return t('calendar.editor.dateRequired');
    const times = formTimes(form.getValues(), timeZone);
    if (times.ends_at === null) return t('calendar.editor.dateRequired');
    if (times.starts_at !== null && Date.parse(times.ends_at) < Date.parse(times.starts_at)) {
      return t('calendar.editor.endBeforeStart');
    }
    return true;
  };
  const startRule = (value: string) => {
    if (!value) return t('calendar.editor.dateRequired');
    return formTimes(form.getValues(), timeZone).starts_at !== null || t('calendar.editor.dateRequired');
  };

  return (
    <Modal
      opened
      onClose={() => closeRef.current()}
      title={event ? t('calendar.editor.editTitle') : t('calendar.editor.newTitle')}
      size="lg"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack gap="md">
          <TextInput
            label={t('calendar.editor.title')}
            required
            data-autofocus
            error={errors.title?.message}
            {...form.register('title', {
              validate: (value) =>
                (value.trim().length > 0 && value.trim().length <= MAX_TITLE) ||
                t('validation.titleRequired', { max: MAX_TITLE }),
            })}
          />
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <Select
                label={t('calendar.editor.kind')}
                data={EVENT_KINDS.map((kind) => ({ value: kind, label: t(`calendar.kinds.${kind}`) }))}
                value={field.value}
                onChange={(value) => {
                  const kind = EVENT_KINDS.find((candidate) => candidate === value);
                  if (kind) field.onChange(kind);
                }}
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="all_day"
            render={({ field }) => (
              <Switch
                label={t('calendar.editor.allDay')}
                checked={field.value}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  const times = switchAllDay(form.getValues(), checked, timeZone);
                  for (const key of ['starts_at', 'ends_at', 'start_date', 'end_date'] as const) {
                    form.setValue(key, times[key], { shouldDirty: true });
                  }
                  field.onChange(checked);
                  form.clearErrors(['starts_at', 'ends_at', 'start_date', 'end_date']);
                }}
              />
            )}
          />
          {allDay ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                type="date"
                label={t('calendar.editor.startDate')}
                required
                error={errors.start_date?.message}
                {...form.register('start_date', { validate: startRule, deps: ['end_date'] })}
              />
              <TextInput
                type="date"
                label={t('calendar.editor.endDate')}
                required
                error={errors.end_date?.message}
                {...form.register('end_date', { validate: endRule })}
              />
            </SimpleGrid>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                type="datetime-local"
                label={t('calendar.editor.startsAt')}
                required
                error={errors.starts_at?.message}
                {...form.register('starts_at', { validate: startRule, deps: ['ends_at'] })}
              />
              <TextInput
                type="datetime-local"
                label={t('calendar.editor.endsAt')}
                required
                error={errors.ends_at?.message}
                {...form.register('ends_at', { validate: endRule })}
              />
            </SimpleGrid>
          )}
          <Text size="xs" c="dimmed">
            {allDay ? t('calendar.editor.allDayHelp') : t('calendar.timeZone', { zone: zoneLabel })}
          </Text>
          <TextInput
            label={t('calendar.editor.location')}
            error={errors.location?.message}
            {...form.register('location', {
              validate: (value) =>
                value.trim().length <= MAX_LOCATION || t('validation.maxLength', { max: MAX_LOCATION }),
            })}
          />
          <Textarea
            label={t('calendar.editor.description')}
            autosize
            minRows={3}
            maxRows={10}
            error={errors.description?.message}
            {...form.register('description', {
              validate: (value) =>
                value.length <= MAX_DESCRIPTION || t('validation.maxLength', { max: MAX_DESCRIPTION }),
            })}
          />
          <Group justify="space-between" mt="sm">
            <div>
              {event ? (
                <Button
                  color="red"
                  variant="outline"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  loading={remove.isPending}
                  onClick={() => confirmDelete(event, onClose)}
                >
                  {t('calendar.editor.delete')}
                </Button>
              ) : null}
            </div>
            <Group gap="xs">
              <Button variant="default" onClick={confirmClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {event ? t('common.save') : t('calendar.editor.create')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
