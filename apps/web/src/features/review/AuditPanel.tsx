import { Accordion, Skeleton, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { reviewAuditQuery } from './review.queries.ts';

/** Who changed this grading when, collapsed: read only once opened. */
export function AuditPanel({ submissionId }: { submissionId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Accordion variant="contained" value={open} onChange={setOpen}>
      <Accordion.Item value="audit">
        <Accordion.Control>{t('grading.audit.title')}</Accordion.Control>
        <Accordion.Panel>{open ? <AuditTable submissionId={submissionId} /> : null}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

function AuditTable({ submissionId }: { submissionId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const audit = useQuery(reviewAuditQuery(submissionId));
  if (audit.isError) return <ErrorState error={audit.error} onRetry={() => void audit.refetch()} />;
  if (!audit.data) return <Skeleton height={80} aria-busy="true" />;
  if (audit.data.results.length === 0) return <Text size="sm">{t('grading.audit.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table aria-label={t('grading.audit.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('grading.audit.at')}</Table.Th>
            <Table.Th>{t('grading.audit.who')}</Table.Th>
            <Table.Th>{t('grading.audit.action')}</Table.Th>
            <Table.Th>{t('grading.audit.detail')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {audit.data.results.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{format.dateTime(entry.at)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.actor_email}</Table.Td>
              <Table.Td>{entry.action}</Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {JSON.stringify(entry.detail)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
