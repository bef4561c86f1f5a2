import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LtiCourseLink, LtiRosterSyncResult } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { courseKeys } from '../courses/courses.queries.ts';
import { LineItemTable } from './LineItemTable.tsx';
import { ltiKeys, syncRoster } from './lti.api.ts';
import { contextName } from './lti-names.ts';

const COUNTS = ['added', 'removed', 'unchanged', 'waiting'] as const;

function SyncResult({ result }: { result: LtiRosterSyncResult }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Alert color="teal" title={t('lti.panel.synced')} role="status">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="dl" m={0}>
        {COUNTS.map((count) => (
          <div key={count}>
            <Text size="xs" c="dimmed" component="dt">
              {t(`lti.panel.counts.${count}`)}
            </Text>
            <Text size="lg" fw={600} component="dd" m={0}>
              {format.number(result[count])}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {result.waiting > 0 ? (
        <Text size="xs" mt="xs">
          {t('lti.panel.waitingHelp')}
        </Text>
      ) : null}
    </Alert>
  );
}

/** One linked LMS course: its roster sync and the grades sent to it. */
export function LmsLinkCard({ courseId, link }: { courseId: number; link: LtiCourseLink }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const sync = useMutation({
    mutationFn: () => syncRoster(courseId, link.id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ltiKeys.course(courseId) });
      void queryClient.invalidateQueries({ queryKey: courseKeys.members(courseId, 'student') });
      void queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
    },
  });
  const syncError = sync.error
    ? isApiError(sync.error, 502)
      ? t('lti.panel.unreachable')
      : errorMessage(sync.error, t)
    : null;

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h5">
            {contextName(link)}
          </Title>
          <Text size="sm" c="dimmed">
            {link.platform}
          </Text>
        </div>
        <Group gap="sm" align="center">
          {link.can_sync_roster ? (
            <Button
              size="sm"
              variant="light"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => sync.mutate()}
              loading={sync.isPending}
            >
              {t('lti.panel.sync')}
            </Button>
          ) : (
            <Text size="sm">{t('lti.panel.noRoster')}</Text>
          )}
          {link.roster_synced_at ? (
            <Text size="sm" c="dimmed">
              {t('lti.panel.lastSync', { date: format.dateTime(link.roster_synced_at) })}
            </Text>
          ) : link.can_sync_roster ? (
            <Text size="sm" c="dimmed">
              {t('lti.panel.neverSynced')}
            </Text>
          ) : null}
        </Group>
        {sync.data ? <SyncResult result={sync.data} /> : null}
        {syncError ? (
          <Alert color="red" icon={<IconAlertTriangle aria-hidden />} role="alert">
            <Text size="sm">{syncError}</Text>
          </Alert>
        ) : link.roster_error && !sync.data ? (
          <Alert
            color="orange"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('lti.panel.lastSyncFailed')}
          >
            <Text size="sm">{link.roster_error}</Text>
          </Alert>
        ) : null}
        <LineItemTable courseId={courseId} link={link} />
      </Stack>
    </Paper>
  );
}
