import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { PygradeStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { HostList } from './HostList.tsx';
import { JobList } from './JobList.tsx';
import { SnippetRunner } from './SnippetRunner.tsx';
import { pygradeStatusQuery } from './pygrade.queries.ts';

/**
 * PyGrade, the grader's console (editors of any course and staff): this API process's sandbox, the
 * queue, the jobs running and recently graded in the caller's courses, the grader hosts, and a box to
 * run a snippet. The status is asked again every 5 s while the tab is visible.
 */
export function PyGradePage() {
  const { t } = useTranslation();
  const status = useQuery(pygradeStatusQuery());
  // The session said editor, the server says no longer: as for any page one may not see.
  if (isApiError(status.error, 403)) return <NotFoundPage />;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('routes.pygrade')}</Title>
        <Text c="dimmed">{t('pygrade.lead')}</Text>
      </div>
      {status.data ? (
        <StatusView status={status.data} />
      ) : status.isError ? (
        <ErrorState error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <PageLoader />
      )}
      <SnippetRunner sandboxOk={status.data?.sandbox.ok} />
    </Stack>
  );
}

function StatusView({ status }: { status: PygradeStatus }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const aliveHosts = status.hosts.filter((host) => host.alive).length;
  return (
    <>
      {/* A status, not an alert: it is there on arrival, and is announced only when it changes. */}
      <Alert
        role="status"
        color={status.sandbox.ok ? 'green' : 'red'}
        icon={status.sandbox.ok ? <IconCircleCheck aria-hidden /> : <IconAlertTriangle aria-hidden />}
        title={status.sandbox.ok ? t('pygrade.sandbox.ok') : t('pygrade.sandbox.unavailable')}
      >
        {status.sandbox.ok ? null : <Text size="sm">{t('pygrade.sandbox.unavailableHint')}</Text>}
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {status.sandbox.detail}
        </Text>
      </Alert>
      <Section title={t('pygrade.queue.title')}>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <Figure label={t('pygrade.queue.waiting')} value={format.number(status.queue_depth)} />
          <Figure label={t('pygrade.queue.running')} value={format.number(status.running.length)} />
          <Figure
            label={t('pygrade.queue.hostsAlive')}
            value={t('pygrade.queue.hostsAliveValue', {
              alive: format.number(aliveHosts),
              total: format.number(status.hosts.length),
            })}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs">
          {t('pygrade.queue.note')}
        </Text>
      </Section>
      <Section title={t('pygrade.running.title')}>
        <JobList jobs={status.running} kind="running" label={t('pygrade.running.title')} />
      </Section>
      <Section title={t('pygrade.recent.title')}>
        <JobList jobs={status.recent} kind="recent" label={t('pygrade.recent.title')} />
      </Section>
      <Section title={t('pygrade.hosts.title')}>
        <HostList hosts={status.hosts} label={t('pygrade.hosts.title')} />
      </Section>
    </>
  );
}

/** One number of the overview, with what it counts. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="sm" p="sm">
      <Group gap={4} wrap="wrap" align="baseline" justify="space-between">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text size="xl" fw={700}>
          {value}
        </Text>
      </Group>
    </Paper>
  );
}
