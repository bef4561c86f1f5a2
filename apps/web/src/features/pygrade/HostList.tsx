import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconHeartbeat, IconPlugConnectedX } from '@tabler/icons-react';
import type { GraderHost } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Fact } from './Fact.tsx';
import { useShowsCards } from './layout.ts';
import classes from './PyGrade.module.css';

/** Whether the host's heartbeat is recent: a word, a colour and an icon (colour is never alone). */
function AliveBadge({ host }: { host: GraderHost }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      size="sm"
      color={host.alive ? 'green' : 'gray'}
      leftSection={
        host.alive ? <IconHeartbeat size={12} aria-hidden /> : <IconPlugConnectedX size={12} aria-hidden />
      }
      style={{ flexShrink: 0 }}
    >
      {host.alive ? t('pygrade.hosts.alive') : t('pygrade.hosts.silent')}
    </Badge>
  );
}

/** The host's sandbox: works or not, and the grader's own words for it (versions, or what is missing). */
function SandboxState({ host }: { host: GraderHost }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} align="flex-start">
      <Badge
        variant="light"
        size="sm"
        color={host.sandbox_ok ? 'green' : 'red'}
        leftSection={
          host.sandbox_ok ? (
            <IconCircleCheck size={12} aria-hidden />
          ) : (
            <IconAlertTriangle size={12} aria-hidden />
          )
        }
      >
        {host.sandbox_ok ? t('pygrade.hosts.sandboxOk') : t('pygrade.hosts.sandboxMissing')}
      </Badge>
      <Text size="xs" c="dimmed" className={classes.breakable}>
        {host.sandbox_detail}
      </Text>
    </Stack>
  );
}

/** The grader processes that announced themselves (heartbeat every few seconds; silent after 30 s). */
export function HostList({ hosts, label }: { hosts: GraderHost[]; label: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const showsCards = useShowsCards();
  if (hosts.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('pygrade.hosts.empty')}
      </Text>
    );
  }
  const load = (host: GraderHost) =>
    t('pygrade.hosts.load', { running: host.running, concurrency: host.concurrency });

  if (showsCards) {
    return (
      <Stack component="ul" gap="xs" aria-label={label} className={classes.cards}>
        {hosts.map((host) => (
          <Paper component="li" key={host.id} withBorder radius="sm" p="sm">
            <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
              <Text size="sm" fw={600} className={classes.breakable}>
                {host.hostname}
              </Text>
              <AliveBadge host={host} />
            </Group>
            <dl className={classes.facts}>
              <Fact term={t('pygrade.hosts.pid')}>{host.pid}</Fact>
              <Fact term={t('pygrade.hosts.lastSeen')}>{format.dateTime(host.last_seen_at)}</Fact>
              <Fact term={t('pygrade.hosts.sandbox')}>
                <SandboxState host={host} />
              </Fact>
              <Fact term={t('pygrade.hosts.running')}>{load(host)}</Fact>
              <Fact term={t('pygrade.hosts.graded')}>{format.number(host.graded)}</Fact>
            </dl>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped verticalSpacing="xs" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('pygrade.hosts.host')}</Table.Th>
          <Table.Th>{t('pygrade.hosts.state')}</Table.Th>
          <Table.Th>{t('pygrade.hosts.lastSeen')}</Table.Th>
          <Table.Th>{t('pygrade.hosts.sandbox')}</Table.Th>
          <Table.Th>{t('pygrade.hosts.running')}</Table.Th>
          <Table.Th ta="end">{t('pygrade.hosts.graded')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {hosts.map((host) => (
          <Table.Tr key={host.id}>
            <Table.Td className={classes.breakable}>
              <Text size="sm" fw={600}>
                {host.hostname}
              </Text>
              <Text size="xs" c="dimmed">
                {t('pygrade.hosts.pidValue', { pid: host.pid })}
              </Text>
            </Table.Td>
            <Table.Td>
              <div className={classes.fit}>
                <AliveBadge host={host} />
              </div>
            </Table.Td>
            <Table.Td>{format.dateTime(host.last_seen_at)}</Table.Td>
            <Table.Td>
              <SandboxState host={host} />
            </Table.Td>
            <Table.Td className={classes.nowrap}>{load(host)}</Table.Td>
            <Table.Td ta="end">{format.number(host.graded)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
