import {
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MAX_EXTENSION_STUDENTS, MAX_EXTRA_MINUTES, type ExtensionKind, type Member } from '@kadai/contracts';
import { Controller, useForm, useWatch, type UseFormSetError } from 'react-hook-form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { courseAssignmentsQuery } from '../assignments/assignments.queries.ts';
import { browserTimeZone, fromLocalInput } from '../assignments/dates.ts';
import { membersQuery } from '../courses/courses.queries.ts';
import { memberName } from '../courses/member-name.ts';
import { courseQuizzesQuery } from '../quizzes/quizzes.queries.ts';
import { useExtensionMutations } from './extensions.api.ts';
import {
  GRANT_FIELDS,
  defaultDates,
  grantItems,
  grantValues,
  toExtensionGrant,
  type GrantFormValues,
  type GrantItem,
  type GrantItems,
  type GrantPrefill,
} from './extension-form.ts';

/**
 * Give one student or several their own dates for an assignment or a quiz. `prefill` null: closed;
 * otherwise what it opens with (a kind; from the gradebook or a Change, a student and an item). Opened
 * on an extension's dates (Change) it is the change of that extension: "Change the extension", "Save".
 */
export function GrantExtensionDialog({
  courseId,
  prefill,
  onClose,
}: {
  courseId: number;
  prefill: GrantPrefill | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={prefill !== null}
      onClose={onClose}
      size="lg"
      closeOnClickOutside={false}
      title={t(prefill?.dates ? 'extensions.dialog.changeTitle' : 'extensions.dialog.title')}
    >
      {prefill ? <GrantLoader courseId={courseId} prefill={prefill} onClose={onClose} /> : null}
    </Modal>
  );
}

/** The course's assignments, quizzes and students first, so the form starts with its defaults in place. */
function GrantLoader({
  courseId,
  prefill,
  onClose,
}: {
  courseId: number;
  prefill: GrantPrefill;
  onClose: () => void;
}) {
  const assignments = useQuery(courseAssignmentsQuery({ course_id: courseId, ordering: 'due_at' }));
  const quizzes = useQuery(courseQuizzesQuery({ course_id: courseId, hide_submitted: false }));
  const students = useQuery(membersQuery(courseId, 'student'));
  const failed = [assignments, quizzes, students].find((query) => query.isError);
  if (failed) return <ErrorState error={failed.error} onRetry={() => void failed.refetch()} />;
  if (!assignments.data || !quizzes.data || !students.data) return <Skeleton height={360} aria-busy="true" />;
  return (
    <GrantForm
      courseId={courseId}
      prefill={prefill}
      items={grantItems(assignments.data.results, quizzes.data.results)}
      students={students.data.results}
      onClose={onClose}
    />
  );
}

/**
 * The server's 400 under the fields it names (`not_students` in the reader's language, the rest as the
 * server words them), a 404 (an item not given in the course) under the item. False when nothing landed
 * on a field, so a notice is still needed.
 */
function applyGrantErrors(error: unknown, setError: UseFormSetError<GrantFormValues>, t: TFunction) {
  if (isApiError(error, 404)) {
    setError('item', { type: 'server', message: t('extensions.dialog.itemNotFound') });
    return true;
  }
  if (!isApiError(error, 400)) return false;
  let applied = false;
  for (const [field, formField] of Object.entries(GRANT_FIELDS)) {
    const message = error.firstFieldMessage(field);
    if (message === undefined) continue;
    const known = field === 'user_ids' && error.body.code === 'not_students';
    setError(formField, { type: 'server', message: known ? t('extensions.dialog.notStudents') : message });
    applied = true;
  }
  return applied;
}

function GrantForm({
  courseId,
  prefill,
  items,
  students,
  onClose,
}: {
  courseId: number;
  prefill: GrantPrefill;
  items: GrantItems;
  students: Member[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const { grant } = useExtensionMutations(courseId);
  const form = useForm<GrantFormValues>({ defaultValues: grantValues(prefill, items) });
  const errors = form.formState.errors;
  const kind = useWatch({ control: form.control, name: 'kind' });
  const itemValue = useWatch({ control: form.control, name: 'item' });
  const item = items[kind].find((candidate) => String(candidate.id) === itemValue);
  const timed = item?.time_limit_minutes != null;
  const zone = browserTimeZone();
  const isChange = prefill.dates !== undefined;

  const submit = form.handleSubmit(async (values) => {
    try {
      await grant.mutateAsync(toExtensionGrant(values, item));
      notifySuccess(
        isChange
          ? t('extensions.dialog.changed')
          : t('extensions.dialog.granted', { count: values.students.length }),
      );
      onClose();
    } catch (error) {
      if (!applyGrantErrors(error, form.setError, t))
        notifyError(errorMessage(error, t), { title: t('extensions.dialog.failed') });
    }
  });

  /** A new kind or item starts from its own default dates. */
  const choose = (nextKind: ExtensionKind, next: GrantItem | undefined) => {
    form.setValue('kind', nextKind);
    form.setValue('item', next ? String(next.id) : null);
    const dates = defaultDates(nextKind, next);
    form.setValue('due_at', dates.due_at);
    form.setValue('late_until', dates.late_until);
    form.setValue('closes_at', dates.closes_at);
    form.setValue('extra_minutes', dates.extra_minutes);
    form.clearErrors(['item', 'due_at', 'late_until', 'closes_at', 'extra_minutes']);
  };

  const studentOptions = students.map((student) => ({
    value: String(student.id),
    label: `${memberName(student, i18n.language)} <${student.email}>`,
  }));
  const courseDates = !item
    ? undefined
    : kind === 'assignment'
      ? item.late_until
        ? t('extensions.dialog.courseDueLate', {
            date: format.deadline(item.due_at),
            late: format.deadline(item.late_until),
          })
        : t('extensions.dialog.courseDue', { date: format.deadline(item.due_at) })
      : item.time_limit_minutes === null
        ? t('extensions.dialog.courseCloses', { date: format.deadline(item.due_at) })
        : t('extensions.dialog.courseClosesLimit', {
            date: format.deadline(item.due_at),
            count: item.time_limit_minutes,
          });
  /** A readable moment after the item opens (the server refuses one before, in English). */
  const validDate = (value: string) => {
    const moment = fromLocalInput(value);
    if (moment === null) return t('extensions.dialog.dateRequired');
    return (
      !item ||
      Date.parse(moment) > Date.parse(item.opens_at) ||
      t(`extensions.dialog.beforeOpens.${kind}`, { date: format.deadline(item.opens_at) })
    );
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <Radio.Group
          label={t('extensions.dialog.kind')}
          value={kind}
          onChange={(value) => {
            const next: ExtensionKind = value === 'quiz' ? 'quiz' : 'assignment';
            if (next !== kind) choose(next, undefined);
          }}
        >
          <Group mt={4}>
            <Radio value="assignment" label={t('extensions.kind.assignment')} />
            <Radio value="quiz" label={t('extensions.kind.quiz')} />
          </Group>
        </Radio.Group>
        <Controller
          control={form.control}
          name="item"
          rules={{ required: t('extensions.dialog.itemRequired') }}
          render={({ field }) => (
            <Select
              label={t(`extensions.kind.${kind}`)}
              description={items[kind].length === 0 ? t(`extensions.dialog.noItems.${kind}`) : courseDates}
              required
              searchable
              allowDeselect={false}
              data={items[kind].map((candidate) => ({ value: String(candidate.id), label: candidate.title }))}
              value={field.value}
              onChange={(value) =>
                choose(
                  kind,
                  items[kind].find((candidate) => String(candidate.id) === value),
                )
              }
              onBlur={field.onBlur}
              error={errors.item?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="students"
          rules={{
            validate: (value) =>
              value.length === 0
                ? t('extensions.dialog.studentsRequired')
                : value.length <= MAX_EXTENSION_STUDENTS ||
                  t('extensions.dialog.tooManyStudents', { max: MAX_EXTENSION_STUDENTS }),
          }}
          render={({ field }) => (
            <MultiSelect
              label={t('extensions.dialog.students')}
              description={t('extensions.dialog.studentsHint', { count: field.value.length })}
              required
              searchable
              hidePickedOptions
              data={studentOptions}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.students?.message}
              nothingFoundMessage={t('extensions.dialog.noStudents')}
            />
          )}
        />
        {kind === 'assignment' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label={t('extensions.dialog.dueAt')}
              description={zone}
              required
              error={errors.due_at?.message}
              {...form.register('due_at', { validate: validDate })}
            />
            <TextInput
              type="datetime-local"
              label={t('extensions.dialog.lateUntil')}
              description={t('extensions.dialog.lateHint', { zone })}
              error={errors.late_until?.message}
              {...form.register('late_until', {
                validate: (value) => {
                  if (!value) return true;
                  const late = fromLocalInput(value);
                  const due = fromLocalInput(form.getValues('due_at'));
                  if (late === null) return t('extensions.dialog.dateRequired');
                  return (
                    due === null ||
                    Date.parse(late) >= Date.parse(due) ||
                    t('extensions.dialog.lateBeforeDue')
                  );
                },
              })}
            />
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: timed ? 2 : 1 }}>
            <TextInput
              type="datetime-local"
              label={t('extensions.dialog.closesAt')}
              description={t('extensions.dialog.closesHint', { zone })}
              error={errors.closes_at?.message}
              {...form.register('closes_at', {
                validate: (value) => {
                  if (value) return validDate(value);
                  const minutes = form.getValues('extra_minutes');
                  return (timed && minutes !== '') || t('extensions.dialog.quizNothing');
                },
              })}
            />
            {timed ? (
              <Controller
                control={form.control}
                name="extra_minutes"
                rules={{
                  validate: (value) =>
                    value === '' ||
                    (Number.isInteger(value) && value >= 1 && value <= MAX_EXTRA_MINUTES) ||
                    t('extensions.dialog.extraRange', { max: MAX_EXTRA_MINUTES }),
                }}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={t('extensions.dialog.extraMinutes')}
                    description={t('extensions.dialog.extraHint', { limit: item?.time_limit_minutes })}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                    onBlur={field.onBlur}
                    min={1}
                    max={MAX_EXTRA_MINUTES}
                    allowDecimal={false}
                    allowNegative={false}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ) : null}
          </SimpleGrid>
        )}
        {kind === 'quiz' && item && !timed ? (
          <Text size="sm" c="dimmed">
            {t('extensions.dialog.noTimeLimit')}
          </Text>
        ) : null}
        <Textarea
          label={t('extensions.dialog.reason')}
          description={t('extensions.dialog.reasonHint')}
          required
          autosize
          minRows={2}
          maxLength={500}
          error={errors.reason?.message}
          {...form.register('reason', {
            validate: (value) => value.trim() !== '' || t('extensions.dialog.reasonRequired'),
          })}
        />
        {isChange ? null : (
          <Text size="sm" c="dimmed">
            {t('extensions.dialog.replaces')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={grant.isPending}>
            {t(isChange ? 'extensions.dialog.save' : 'extensions.dialog.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
