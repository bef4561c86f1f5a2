import { Badge, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ExtensionAuditEntry } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CardItem, CardList } from '../../ui/CardList.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { OwnDates } from './ExtensionDates.tsx';
import { extensionAuditQuery } from './extensions.api.ts';

export const AUDIT_PAGE_SIZE = 20;

const ACTION_COLORS: Record<ExtensionAuditEntry['action'], string> = {
  granted: 'green',
  changed: 'blue',
  revoked: 'gray',
};

/** Every grant, change and revoke of the course, newest first, a page at a time. */
export function ExtensionAuditLog({
  courseId,
  page,
  onPage,
}: {
  courseId: number;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const isPhone = useIsPhone();
  const audit = useQuery(
    extensionAuditQuery(courseId, { limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE }),
  );

  if (audit.isError) return <ErrorState error={audit.error} onRetry={() => void audit.refetch()} />;
  if (!audit.data) return <Skeleton height={200} aria-busy="true" />;
  const { count, results } = audit.data;
  const totalPages = Math.ceil(count / AUDIT_PAGE_SIZE);
  if (count === 0) return <Text c="dimmed">{t('extensions.audit.empty')}</Text>;

  const action = (entry: ExtensionAuditEntry) => (
    // A table squeezes its cells to their narrowest; the action's word must stay whole ("REVO…").
    <Badge
      variant="light"
      color={ACTION_COLORS[entry.action]}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(`extensions.audit.action.${entry.action}`)}
    </Badge>
  );
  const item = (entry: ExtensionAuditEntry) => (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {t(`extensions.kind.${entry.kind}`)} · {entry.item_title}
    </Text>
  );
  const dates = (entry: ExtensionAuditEntry, which: 'before' | 'after') => {
    const value = entry[which];
    return value ? (
      <OwnDates kind={entry.kind} dates={value} />
    ) : (
      <Text size="sm" c="dimmed">
        {t('extensions.audit.none')}
      </Text>
    );
  };
  const text = (value: string) => (
    <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
      {value}
    </Text>
  );
  const label = t('extensions.tabs.audit');

  return (
    <Stack>
      {isPhone ? (
        <CardList label={label}>
          {results.map((entry) => (
            <CardItem
              key={entry.id}
              heading={
                <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {entry.user_email}
                    </Text>
                    {item(entry)}
                  </div>
                  {action(entry)}
                </Group>
              }
              facts={[
                { label: t('extensions.audit.columns.before'), value: dates(entry, 'before') },
                { label: t('extensions.audit.columns.after'), value: dates(entry, 'after') },
                { label: t('extensions.audit.columns.reason'), value: text(entry.reason) },
                {
                  label: t('extensions.audit.columns.at'),
                  value: (
                    <>
                      <Text size="sm">{format.dateTime(entry.at)}</Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {entry.actor_email}
                      </Text>
                    </>
                  ),
                },
              ]}
            />
          ))}
        </CardList>
      ) : (
        <Table.ScrollContainer minWidth={1100}>
          <Table striped verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('extensions.audit.columns.at')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.action')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.student')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.item')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.before')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.after')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.reason')}</Table.Th>
                <Table.Th>{t('extensions.audit.columns.actor')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <Text size="sm">{format.dateTime(entry.at)}</Text>
                  </Table.Td>
                  <Table.Td>{action(entry)}</Table.Td>
                  <Table.Td maw={220}>{text(entry.user_email)}</Table.Td>
                  <Table.Td maw={220}>{item(entry)}</Table.Td>
                  <Table.Td>{dates(entry, 'before')}</Table.Td>
                  <Table.Td>{dates(entry, 'after')}</Table.Td>
                  <Table.Td maw={240}>{text(entry.reason)}</Table.Td>
                  <Table.Td maw={200}>{text(entry.actor_email)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager total={totalPages} value={page} onChange={onPage} />
    </Stack>
  );
}
