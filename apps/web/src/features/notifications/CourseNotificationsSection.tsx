import { Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CourseNotificationSettings } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { updateCourseNotificationSettings } from './notifications.api.ts';
import { courseNotificationSettingsQuery, notificationKeys } from './notifications.queries.ts';

/**
 * A course's own notification choice, on its settings page (its editors and staff): whether its
 * editors hear of new members (off until turned on). The switch saves as it is flipped.
 */
export function CourseNotificationsSection({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery(courseNotificationSettingsQuery(courseId));
  const save = useMutation({
    mutationFn: (body: CourseNotificationSettings) => updateCourseNotificationSettings(courseId, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationKeys.course(courseId), saved);
      notifySuccess(t('notifications.course.saved'));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('notifications.course.saveFailed') }),
  });
  // While a change is on its way the switch shows it (and stays put until the server has answered).
  const checked = save.isPending
    ? save.variables.notify_editors_of_new_members
    : (settings.data?.notify_editors_of_new_members ?? false);

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="course-notifications-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="course-notifications-title">
          {t('notifications.course.title')}
        </Title>
        {settings.isError && !settings.data ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        ) : !settings.data ? (
          <Skeleton height={40} />
        ) : (
          <Stack gap={4}>
            <Switch
              label={t('notifications.course.notifyEditors')}
              aria-describedby="course-notifications-help"
              checked={checked}
              disabled={save.isPending}
              onChange={(event) =>
                save.mutate({ notify_editors_of_new_members: event.currentTarget.checked })
              }
            />
            <Text size="sm" c="dimmed" id="course-notifications-help">
              {t('notifications.course.notifyEditorsHelp')}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
