import { ActionIcon, Paper, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberKind, PendingMember } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { removeMembers } from './courses.api.ts';
import { courseKeys } from './courses.queries.ts';

/**
 * Institutional ids on the list whose people have not signed in yet: they join the course on their
 * first sign-in with the university account. Shown only while there are some.
 */
export function PendingMembersList({
  courseId,
  kind,
  canChange,
  pending,
  count,
}: {
  courseId: number;
  kind: MemberKind;
  canChange: boolean;
  pending: PendingMember[];
  /** The full number: the server sends up to `MAX_MEMBERS_LISTED` entries. */
  count: number;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();

  const remove = useMutation({
    mutationFn: (ids: number[]) => removeMembers(kind, courseId, { pending_ids: ids }),
    onSuccess: async (result) => {
      notifySuccess(t('members.pending.removed', { count: result.removed_pending }));
      await queryClient.invalidateQueries({ queryKey: courseKeys.members(courseId, kind) });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('members.removeFailed') }),
  });

  const confirmRemove = (entry: PendingMember) =>
    modals.openConfirmModal({
      title: t('members.pending.removeTitle'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm">{entry.institutional_id}</Text>
        </Stack>
      ),
      labels: { confirm: t('members.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate([entry.id]),
    });

  if (count === 0) return null;
  const title = t('members.pending.title');
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {t('members.pending.help', { count })}
          </Text>
        </div>
        <Table.ScrollContainer minWidth={300}>
          <Table striped verticalSpacing="xs" aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('members.institutionalId')}</Table.Th>
                <Table.Th>{t('members.addedAt')}</Table.Th>
                {canChange ? (
                  <Table.Th w={60}>
                    <VisuallyHidden>{t('members.actions')}</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pending.map((entry) => {
                const label = t('members.removeOne', { name: entry.institutional_id });
                return (
                  <Table.Tr key={entry.id}>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{entry.institutional_id}</Table.Td>
                    <Table.Td>{format.dateTime(entry.added_at)}</Table.Td>
                    {canChange ? (
                      <Table.Td>
                        <Tooltip label={label}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={label}
                            onClick={() => confirmRemove(entry)}
                            loading={remove.isPending && remove.variables.includes(entry.id)}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
