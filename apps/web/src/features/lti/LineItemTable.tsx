import { Badge, Button, Table, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LtiCourseLink, LtiLineItemStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { ltiKeys, resendLineItem } from './lti.api.ts';

/** The columns in the LMS's gradebook Kadai sends scores to, and how the sending goes. */
export function LineItemTable({ courseId, link }: { courseId: number; link: LtiCourseLink }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: (item: LtiLineItemStatus) => resendLineItem(item.id),
    onSuccess: (result, item) => {
      void queryClient.invalidateQueries({ queryKey: ltiKeys.course(courseId) });
      if (result.queued) notifySuccess(t('lti.panel.resent', { title: item.title }));
      else notifySuccess(t('lti.panel.nothingToResend', { title: item.title }));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('lti.panel.resendFailed') }),
  });
  const tableName = t('lti.panel.lineItemsOf', { course: link.title });
  return (
    <>
      <Title order={4} size="h6">
        {t('lti.panel.lineItems')}
      </Title>
      {link.line_items.length === 0 ? (
        <Text size="sm">{t('lti.panel.noLineItems')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={820}>
          <Table verticalSpacing="xs" aria-label={tableName}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lti.panel.columns.title')}</Table.Th>
                <Table.Th>{t('lti.panel.columns.kind')}</Table.Th>
                <Table.Th ta="end">{t('lti.panel.columns.sent')}</Table.Th>
                <Table.Th ta="end">{t('lti.panel.columns.pending')}</Table.Th>
                <Table.Th ta="end">{t('lti.panel.columns.failed')}</Table.Th>
                <Table.Th>{t('lti.panel.columns.lastSent')}</Table.Th>
                <Table.Th>{t('lti.panel.columns.lastError')}</Table.Th>
                <Table.Th>{t('lti.panel.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {link.line_items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <Text size="sm">{item.title}</Text>
                    {item.label && item.label !== item.title ? (
                      <Text size="xs" c="dimmed">
                        {item.label}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" size="sm" color={item.kind === 'quiz' ? 'grape' : 'blue'}>
                      {t(`lti.kind.${item.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="end">{format.number(item.sent)}</Table.Td>
                  <Table.Td ta="end">{format.number(item.pending)}</Table.Td>
                  <Table.Td ta="end">
                    <Text
                      size="sm"
                      c={item.failed > 0 ? 'red' : undefined}
                      fw={item.failed > 0 ? 600 : undefined}
                    >
                      {format.number(item.failed)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{item.last_sent_at ? format.dateTime(item.last_sent_at) : '—'}</Text>
                  </Table.Td>
                  <Table.Td maw={240}>
                    <Text size="xs" style={{ wordBreak: 'break-word' }}>
                      {item.last_error ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconSend size={14} aria-hidden />}
                      onClick={() => resend.mutate(item)}
                      loading={resend.isPending && resend.variables.id === item.id}
                      aria-label={t('lti.panel.resendLabel', { title: item.title })}
                    >
                      {t('lti.panel.resend')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
