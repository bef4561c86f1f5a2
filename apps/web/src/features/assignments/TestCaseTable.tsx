import { ActionIcon, Badge, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { CardItem, CardList } from '../../ui/CardList.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { DraftBadge, DraftNote } from './DraftBadge.tsx';
import { VisibilityBadge } from './VisibilityBadge.tsx';
import { deleteTestCase, reorderTestCases } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';
import { testCasePointsText } from './test-case-text.ts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

/**
 * The tests in the order they run, with buttons to move, edit and delete each: a table, and on a phone a
 * card per test case (name, its badges wrapping, then points, limits and the buttons) that needs no
 * sideways scrolling. A draft says what it means in words under its name, and counts no points.
 */
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
  const isPhone = useIsPhone();
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

  const actions = (test: EditorTestCase, index: number) => (
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
  );
  const kindBadge = (test: EditorTestCase) => (
    <Badge variant="light" color="gray" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {t(`testCases.kinds.${test.kind}`)}
    </Badge>
  );
  const fileName = (test: EditorTestCase) =>
    test.kind === 'pytest' ? (
      <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {test.test_file_name}
      </Text>
    ) : null;
  const points = (test: EditorTestCase) => (
    <Text size="sm" c={test.draft ? 'dimmed' : undefined} fs={test.draft ? 'italic' : undefined}>
      {testCasePointsText(t, test)}
    </Text>
  );
  const limits = (test: EditorTestCase) => (
    <Text size="xs">{t('testCases.limitsValue', { ms: test.time_limit_ms, mb: test.memory_limit_mb })}</Text>
  );

  if (isPhone) {
    return (
      <CardList label={t('testCases.listTitle')}>
        {tests.map((test, index) => (
          <CardItem
            key={test.id}
            heading={
              <Stack gap={6}>
                <Group gap="xs" wrap="nowrap" align="baseline">
                  <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                    {index + 1}
                  </Text>
                  <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'break-word' }}>
                    {test.name}
                  </Text>
                </Group>
                <Group gap={6} wrap="wrap">
                  {test.draft ? <DraftBadge /> : null}
                  {kindBadge(test)}
                  <VisibilityBadge visibility={test.visibility} muted={test.draft} />
                </Group>
                {fileName(test)}
                {test.draft ? <DraftNote /> : null}
              </Stack>
            }
            facts={[
              { label: t('testCases.fields.points'), value: points(test) },
              { label: t('testCases.limits'), value: limits(test) },
            ]}
            actions={actions(test, index)}
          />
        ))}
      </CardList>
    );
  }

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
                <Stack gap={4}>
                  <Group gap={6} wrap="wrap">
                    <Text size="sm" fw={600} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
                      {test.name}
                    </Text>
                    {test.draft ? <DraftBadge /> : null}
                  </Group>
                  {test.draft ? <DraftNote /> : null}
                </Stack>
              </Table.Td>
              <Table.Td>
                {kindBadge(test)}
                {fileName(test)}
              </Table.Td>
              <Table.Td>
                <VisibilityBadge visibility={test.visibility} muted={test.draft} />
              </Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {points(test)}
              </Table.Td>
              {/* Whole: "2000 ミリ秒" broken after ミリ reads as nothing. */}
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{limits(test)}</Table.Td>
              <Table.Td>{actions(test, index)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
