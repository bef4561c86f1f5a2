import { Alert, Anchor, Button, Group, List, Skeleton, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCalendarPlus, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../ui/CopyField.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { resetCalendarFeed } from './events.api.ts';
import { calendarFeedQuery, calendarKeys } from './events.queries.ts';

/** The caller's private feed URL for calendar apps, how to use it, and its reset ('Sure to reset?'). */
export function SubscribeSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const feed = useQuery(calendarFeedQuery());
  const reset = useMutation({
    mutationFn: resetCalendarFeed,
    onSuccess: (fresh) => {
      queryClient.setQueryData(calendarKeys.feed(), fresh);
      notifySuccess(t('calendar.subscribe.resetDone'));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('calendar.subscribe.resetFailed') }),
  });
  const confirmReset = () =>
    modals.openConfirmModal({
      title: t('calendar.subscribe.resetTitle'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmReset')}</Text>
          <Text size="sm">{t('calendar.subscribe.resetExplained')}</Text>
        </Stack>
      ),
      labels: { confirm: t('calendar.subscribe.reset'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate(),
    });

  return (
    <Section title={t('calendar.subscribe.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('calendar.subscribe.intro')}</Text>
        {feed.isError ? (
          <ErrorState error={feed.error} onRetry={() => void feed.refetch()} />
        ) : !feed.data ? (
          <Skeleton height={60} aria-busy="true" />
        ) : (
          <>
            <CopyField label={t('calendar.subscribe.urlLabel')} value={feed.data.url} />
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
              {t('calendar.subscribe.private')}
            </Alert>
            <List size="sm" spacing={4}>
              <List.Item>{t('calendar.subscribe.google')}</List.Item>
              <List.Item>{t('calendar.subscribe.outlook')}</List.Item>
              <List.Item>
                {t('calendar.subscribe.other')}{' '}
                <Anchor href={feed.data.webcal_url}>
                  <IconCalendarPlus size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
                  {t('calendar.subscribe.openApp')}
                </Anchor>
              </List.Item>
            </List>
            <Text size="xs" c="dimmed">
              {t('calendar.subscribe.refresh')}
            </Text>
            <Group>
              <Button
                variant="outline"
                color="red"
                leftSection={<IconRefresh size={16} aria-hidden />}
                onClick={confirmReset}
                loading={reset.isPending}
              >
                {t('calendar.subscribe.reset')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Section>
  );
}
