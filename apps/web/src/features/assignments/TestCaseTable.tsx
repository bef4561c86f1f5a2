import { ActionIcon, Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { DraftBadge } from './DraftBadge.tsx';
import { VisibilityBadge } from './VisibilityBadge.tsx';
import { deleteTestCase, reorderTestCases } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

/** The tests in the order they run, with buttons to move, edit and delete each. */
export function TestCaseTable({
  tests,
  assignmentId,
  courseId,
  onEdit,
}: {
  tests: EditorTestCase[];
  assignmentId: number;
  courseId: number;
  onEdit: (test: EditorTestCase) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = assignmentKeys.testCases(assignmentId, courseId);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignmentId, courseId) }),
      queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) }),
    ]);

  const reorder = useMutation({
    mutationFn: (ids: number[]) => reorderTestCases(assignmentId, courseId, ids),
    onError: (error) => notifyError(errorMessage(error, t), { title: t('testCases.reorderFailed') }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (test: EditorTestCase) => deleteTestCase(assignmentId, courseId, test.id),
    onSuccess: (_result, test) => notifySuccess(t('testCases.deleted', { name: test.name })),
    onError: (error) => notifyError(errorMessage(error, t), { title: t('testCases.deleteFailed') }),
    onSettled: refresh,
  });

  const move = (index: number, offset: -1 | 1) => {
    const ids = tests.map((test) => test.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + offset, 0, moved!);
    reorder.mutate(ids);
  };

  const confirmDelete = (test: EditorTestCase) =>
    modals.openConfirmModal({
      title: t('testCases.delete'),
      children: (
        <>
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600}>
            {test.name}
          </Text>
        </>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(test),
    });

  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs" aria-label={t('testCases.listTitle')} aria-busy={reorder.isPending}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>#</Table.Th>
            <Table.Th>{t('testCases.fields.name')}</Table.Th>
            <Table.Th>{t('testCases.fields.kind')}</Table.Th>
            <Table.Th>{t('testCases.fields.visibility')}</Table.Th>
            <Table.Th ta="end">{t('testCases.fields.points')}</Table.Th>
            <Table.Th>{t('testCases.limits')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('testCases.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tests.map((test, index) => (
            <Table.Tr key={test.id}>
              <Table.Td>{index + 1}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="wrap">
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {test.name}
                  </Text>
                  {test.draft ? <DraftBadge /> : null}
                </Group>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color="gray">
                  {t(`testCases.kinds.${test.kind}`)}
                </Badge>
                {test.kind === 'pytest' ? (
                  <Text size="xs" ff="monospace" mt={2}>
                    {test.test_file_name}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <VisibilityBadge visibility={test.visibility} />
              </Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {test.kind === 'pytest' && test.points_auto
                  ? t('testCases.pointsFollow', { count: test.points })
                  : test.points}
              </Table.Td>
              <Table.Td>
                <Text size="xs">
                  {t('testCases.limitsValue', { ms: test.time_limit_ms, mb: test.memory_limit_mb })}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  <ActionIcon
                    variant="subtle"
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                    aria-label={t('testCases.moveUp', { name: test.name })}
                  >
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    disabled={index === tests.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                    aria-label={t('testCases.moveDown', { name: test.name })}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    onClick={() => onEdit(test)}
                    aria-label={t('testCases.editNamed', { name: test.name })}
                  >
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => confirmDelete(test)}
                    aria-label={t('testCases.deleteNamed', { name: test.name })}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
