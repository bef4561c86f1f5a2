import { ActionIcon, Anchor, Badge, Group, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBan, IconCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { CardItem, CardList } from '../../ui/CardList.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Deadline } from '../../ui/Deadline.tsx';
import { memberName } from '../courses/member-name.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { SubmissionStateNote } from './SubmissionStateNote.tsx';
import { isCancelable } from './status.ts';
import { cancelSubmission } from './submissions.api.ts';
import { submissionKeys } from './submissions.queries.ts';

/** The columns of spec §2 (user, score, status, due date, submission date, final, late). */
export function SubmissionTable({ rows, canEdit }: { rows: Submission[]; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const isPhone = useIsPhone();
  if (rows.length === 0) {
    return (
      <Text size="sm" py="md">
        {t('submissions.list.none')}
      </Text>
    );
  }
  if (isPhone) return <SubmissionCards rows={rows} canEdit={canEdit} />;
  return (
    <Table.ScrollContainer minWidth={canEdit ? 1040 : 960}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('routes.submission')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('submissions.columns.submission')}</Table.Th>
            <Table.Th>{t('submissions.columns.user')}</Table.Th>
            <Table.Th ta="end">{t('submissions.columns.score')}</Table.Th>
            <Table.Th>{t('submissions.columns.status')}</Table.Th>
            <Table.Th>{t('submissions.columns.dueDate')}</Table.Th>
            <Table.Th>{t('submissions.columns.submittedAt')}</Table.Th>
            <Table.Th ta="center">{t('submissions.columns.final')}</Table.Th>
            <Table.Th ta="center">{t('submissions.columns.late')}</Table.Th>
            {canEdit ? (
              <Table.Th>
                <VisuallyHidden>{t('submissions.columns.actions')}</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Stack gap={0}>
                  <Anchor
                    component={Link}
                    fw={600}
                    size="sm"
                    to={pathTo('SubmissionDetail', { course_id: row.course_id, submission_id: row.id })}
                  >
                    {t('submissions.number', { id: row.id })}
                  </Anchor>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {row.assignment_title}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{memberName(row.user, i18n.language)}</Text>
                {canEdit ? (
                  <Text size="xs" c="dimmed">
                    {row.user.email}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td ta="end">
                <Text size="sm" ff="monospace">
                  {row.score === null ? '–' : row.score} / {row.max_score ?? '–'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <StatusBadge status={row.status} score={row.score} max={row.max_score} size="sm" />
                  <SubmissionStateNote submission={row} />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  <Deadline at={row.due_at} />
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{format.dateTime(row.created_at)}</Text>
              </Table.Td>
              <Table.Td ta="center">
                <YesNo value={row.is_final} color="blue" />
              </Table.Td>
              <Table.Td ta="center">
                {row.is_late ? (
                  <Badge size="sm" variant="light" color="orange">
                    {t('submissions.late')}
                  </Badge>
                ) : (
                  <YesNo value={false} color="orange" />
                )}
              </Table.Td>
              {canEdit ? (
                <Table.Td>{isCancelable(row.status) ? <CancelButton submission={row} /> : null}</Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The same list on a phone: a card per submission with its score, status, due date and flags. */
function SubmissionCards({ rows, canEdit }: { rows: Submission[]; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  return (
    <CardList label={t('routes.submission')}>
      {rows.map((row) => (
        <CardItem
          key={row.id}
          heading={
            <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Anchor
                  component={Link}
                  fw={600}
                  size="sm"
                  to={pathTo('SubmissionDetail', { course_id: row.course_id, submission_id: row.id })}
                >
                  {t('submissions.number', { id: row.id })}
                </Anchor>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {row.assignment_title}
                </Text>
              </Stack>
              <Group gap={4} wrap="nowrap">
                {row.is_final ? (
                  <Badge size="sm" variant="light" color="blue">
                    {t('submissions.columns.final')}
                  </Badge>
                ) : null}
                {row.is_late ? (
                  <Badge size="sm" variant="light" color="orange">
                    {t('submissions.late')}
                  </Badge>
                ) : null}
              </Group>
            </Group>
          }
          facts={[
            {
              label: t('submissions.columns.score'),
              value: (
                <Text size="sm" ff="monospace">
                  {row.score === null ? '–' : row.score} / {row.max_score ?? '–'}
                </Text>
              ),
            },
            {
              label: t('submissions.columns.status'),
              value: (
                <Stack gap={2} align="flex-start">
                  <StatusBadge status={row.status} score={row.score} max={row.max_score} size="sm" />
                  <SubmissionStateNote submission={row} />
                </Stack>
              ),
            },
            {
              label: t('submissions.columns.dueDate'),
              value: (
                <Text size="sm">
                  <Deadline at={row.due_at} />
                </Text>
              ),
            },
            {
              label: t('submissions.columns.submittedAt'),
              value: <Text size="sm">{format.dateTime(row.created_at)}</Text>,
            },
            ...(canEdit
              ? [
                  {
                    label: t('submissions.columns.user'),
                    value: <Text size="sm">{memberName(row.user, i18n.language)}</Text>,
                  },
                ]
              : []),
          ]}
          actions={canEdit && isCancelable(row.status) ? <CancelButton submission={row} /> : undefined}
        />
      ))}
    </CardList>
  );
}

function YesNo({ value, color }: { value: boolean; color: string }) {
  const { t } = useTranslation();
  return value ? (
    <Group justify="center" gap={4}>
      <IconCheck size={16} color={`var(--mantine-color-${color}-light-color)`} aria-hidden />
      <VisuallyHidden>{t('common.yes')}</VisuallyHidden>
    </Group>
  ) : (
    <Text size="sm" c="dimmed">
      <span aria-hidden>–</span>
      <VisuallyHidden>{t('common.no')}</VisuallyHidden>
    </Text>
  );
}

/** Editors stop a submission that has not finished grading. */
function CancelButton({ submission }: { submission: Submission }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelSubmission(submission.id),
    onSuccess: async () => {
      notifySuccess(t('submissions.cancel.done', { id: submission.id }));
      await queryClient.invalidateQueries({ queryKey: submissionKeys.all });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.cancel.failed') }),
  });
  const label = t('submissions.cancel.named', { id: submission.id });
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={label}
        loading={cancel.isPending}
        onClick={() =>
          modals.openConfirmModal({
            title: t('submissions.cancel.title'),
            children: <Text size="sm">{t('submissions.cancel.confirm', { id: submission.id })}</Text>,
            labels: { confirm: t('submissions.cancel.action'), cancel: t('common.cancel') },
            confirmProps: { color: 'red' },
            onConfirm: () => cancel.mutate(),
          })
        }
      >
        <IconBan size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
