import {
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_KINDS,
  type EmailChoice,
  type NotificationKind,
  type NotificationSettings,
  type NotificationSettingsUpdate,
} from '@kadai/contracts';
import { useId, useMemo } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../i18n/format.ts';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Section } from '../../ui/Section.tsx';
import { TimeZoneSelect } from '../../ui/TimeZoneSelect.tsx';
import { useSession } from '../auth/session.ts';
import { courseListQuery } from '../courses/courses.queries.ts';
import { KIND_LABEL } from './notification-kinds.ts';
import { updateNotificationSettings } from './notifications.api.ts';
import { notificationKeys, notificationSettingsQuery } from './notifications.queries.ts';
import classes from './Notifications.module.css';

/** The course list, a page of the API's largest: one's own courses among them (staff see every course). */
const MY_COURSES = { limit: 100, offset: 0, ordering: 'title' } as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, '0')}:00`,
}));
const CHOICE_LABEL = {
  immediately: 'notifications.settings.choice.immediately',
  digest: 'notifications.settings.choice.digest',
  off: 'notifications.settings.choice.off',
} as const satisfies Record<EmailChoice, string>;

interface SettingsForm {
  email: Record<NotificationKind, EmailChoice>;
  digest_hour: string;
  time_zone: string;
  muted_course_ids: string[];
}

function toForm(settings: NotificationSettings): SettingsForm {
  return {
    email: settings.email,
    digest_hour: String(settings.digest_hour),
    time_zone: settings.time_zone,
    muted_course_ids: settings.muted_course_ids.map(String),
  };
}

/**
 * What reaches the reader by e-mail: per kind at once, in the daily digest or not at all, the digest's
 * hour and time zone, and courses that send none. Every notification shows in the app whatever this
 * says (docs/notifications.md).
 */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery(notificationSettingsQuery());
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t('routes.notificationSettings')}</Title>
        <Anchor component={Link} to={pathTo('Notifications')} size="sm" className={classes.settingsLink}>
          <IconArrowLeft size={16} aria-hidden />
          {t('notifications.settings.back')}
        </Anchor>
      </Stack>
      {settings.isError && !settings.data ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !settings.data ? (
        <PageLoader />
      ) : (
        <SettingsForm key={settings.dataUpdatedAt} settings={settings.data} />
      )}
    </Stack>
  );
}

function SettingsForm({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const form = useForm<SettingsForm>({ defaultValues: toForm(settings) });
  const courses = useQuery(courseListQuery(MY_COURSES));
  const editorCourses = useSession((s) => s.editorCourses);
  const courseOptions = useMemo(() => {
    // Only one's own courses may be muted (the server refuses others): staff, whom the list shows every
    // course, are members of those they edit.
    const own = (courses.data?.results ?? []).filter(
      (course) => course.my_role !== 'staff' || editorCourses.includes(course.id),
    );
    const listed = own.map((course) => ({ value: String(course.id), label: course.title }));
    // A muted course the list does not hold (left since, or beyond its first hundred) stays muted.
    const missing = settings.muted_course_ids
      .filter((id) => !listed.some((option) => option.value === String(id)))
      .map((id) => ({ value: String(id), label: `#${id}` }));
    return [...listed, ...missing];
  }, [courses.data, editorCourses, settings.muted_course_ids]);

  const save = useMutation({
    // The zone is sent only when changed: a person who follows the server's default keeps following it.
    mutationFn: (values: SettingsForm) => {
      const body: NotificationSettingsUpdate = {
        email: values.email,
        digest_hour: Number(values.digest_hour),
        muted_course_ids: values.muted_course_ids.map(Number),
        ...(form.formState.dirtyFields.time_zone ? { time_zone: values.time_zone } : {}),
      };
      return updateNotificationSettings(body);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationKeys.settings(), saved);
      notifySuccess(t('notifications.settings.saved'));
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['digest_hour', 'time_zone', 'muted_course_ids'])) {
        notifyError(errorMessage(error, t), { title: t('notifications.settings.saveFailed') });
      }
    },
  });

  return (
    <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <Stack gap="lg">
        <Text size="sm">{t('notifications.settings.intro')}</Text>
        {settings.email_refused_at !== null ? (
          <Alert
            color="orange"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('notifications.settings.refusedTitle')}
          >
            <Text size="sm">
              {t('notifications.settings.refused', { date: format.dateTime(settings.email_refused_at) })}
            </Text>
          </Alert>
        ) : null}
        {!settings.email_delivered ? (
          <Alert
            color="gray"
            icon={<IconInfoCircle aria-hidden />}
            title={t('notifications.settings.noDeliveryTitle')}
          >
            <Text size="sm">{t('notifications.settings.noDelivery')}</Text>
          </Alert>
        ) : null}
        <Section title={t('notifications.settings.emailSection')}>
          <Stack gap={0}>
            {NOTIFICATION_KINDS.map((kind) => (
              <KindChoice key={kind} kind={kind} control={form.control} />
            ))}
          </Stack>
        </Section>
        <Section title={t('notifications.settings.digestSection')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="digest_hour"
              render={({ field, fieldState }) => (
                <Select
                  label={t('notifications.settings.digestHour')}
                  description={t('notifications.settings.digestHourHelp')}
                  data={HOURS}
                  allowDeselect={false}
                  value={field.value}
                  onChange={(value) => {
                    if (value !== null) field.onChange(value);
                  }}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="time_zone"
              render={({ field, fieldState }) => (
                <TimeZoneSelect
                  label={t('notifications.settings.timeZone')}
                  description={t('notifications.settings.timeZoneHelp')}
                  nothingFound={t('courses.fields.timeZoneNothing')}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={fieldState.error?.message}
                />
              )}
            />
          </SimpleGrid>
        </Section>
        <Section title={t('notifications.settings.mutedSection')}>
          <Controller
            control={form.control}
            name="muted_course_ids"
            render={({ field, fieldState }) => (
              <MultiSelect
                label={t('notifications.settings.mutedCourses')}
                description={t('notifications.settings.mutedHelp')}
                data={courseOptions}
                searchable
                hidePickedOptions
                nothingFoundMessage={t('notifications.settings.mutedNothing')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
        </Section>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One kind's choice: a label and three segments (radio buttons to a screen reader). */
function KindChoice({ kind, control }: { kind: NotificationKind; control: Control<SettingsForm> }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <div className={classes.kindRow}>
      <Text size="sm" fw={500} id={labelId}>
        {t(KIND_LABEL[kind])}
      </Text>
      <Controller
        control={control}
        name={`email.${kind}`}
        render={({ field }) => (
          <SegmentedControl
            aria-labelledby={labelId}
            value={field.value}
            onChange={(value) => field.onChange(value)}
            data={(['immediately', 'digest', 'off'] as const).map((choice) => ({
              value: choice,
              label: t(CHOICE_LABEL[choice]),
            }))}
          />
        )}
      />
    </div>
  );
}
