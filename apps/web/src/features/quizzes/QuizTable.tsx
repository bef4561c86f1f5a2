import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChartBar, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuizInCourse, QuizState } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { ExtendedBadge } from '../extensions/ExtendedBadge.tsx';
import { useTimeLimitText } from './QuizIntro.tsx';
import { deleteQuiz } from './quizzes.api.ts';
import { quizKeys } from './quizzes.queries.ts';

const detailPath = (row: QuizInCourse) =>
  pathTo('QuizDetailV2', {
    course_id: row.quiz_course.course_id,
    quiz_id: row.quiz_id,
    quiz_course_id: row.quiz_course.id,
  });

/** One group of the quiz list (open, upcoming or closed) as a table. */
export function QuizTable({
  state,
  rows,
  canEdit,
  onEdit,
}: {
  state: QuizState;
  rows: QuizInCourse[];
  canEdit: boolean;
  onEdit: (quizId: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const timeLimit = useTimeLimitText();
  const title = t(`quiz.list.groups.${state}`, { count: rows.length });
  return (
    <Section title={title}>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t(`quiz.list.none.${state}`)}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={canEdit ? 960 : 760}>
          {/* Fixed widths, so the three groups' columns line up. */}
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={title} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={canEdit ? '28%' : '34%'}>{t('quiz.list.columns.title')}</Table.Th>
                <Table.Th w={canEdit ? '25%' : '30%'}>{t('quiz.list.columns.window')}</Table.Th>
                <Table.Th w={canEdit ? '11%' : '14%'}>{t('quiz.list.columns.timeLimit')}</Table.Th>
                <Table.Th w={canEdit ? '11%' : '22%'}>
                  {canEdit ? t('quiz.list.columns.submitted') : t('quiz.list.columns.mine')}
                </Table.Th>
                {canEdit ? <Table.Th w="25%">{t('quiz.list.columns.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.quiz_course.id}>
                  <Table.Td>
                    <Anchor component={Link} to={detailPath(row)} fw={600}>
                      {row.title}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {t('quiz.facts.questionsAndPoints', {
                        count: row.question_count,
                        points: format.number(row.total_points),
                      })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {format.deadlineRange(row.quiz_course.opens_at, row.quiz_course.closes_at)}
                    </Text>
                    <ExtendedBadge extended={row.quiz_course.extended} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{timeLimit(row.quiz_course.time_limit_minutes)}</Text>
                  </Table.Td>
                  <Table.Td>{canEdit ? <SubmittedCount row={row} /> : <MyStatus row={row} />}</Table.Td>
                  {canEdit ? (
                    <Table.Td>
                      <EditorActions row={row} onEdit={onEdit} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

function SubmittedCount({ row }: { row: QuizInCourse }) {
  const format = useFormatters();
  return <Text size="sm">{format.number(row.submitted_students ?? 0)}</Text>;
}

function MyStatus({ row }: { row: QuizInCourse }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const mine = row.my_submission;
  if (mine?.status === 'submitted') {
    return (
      <Group gap="xs">
        <Badge variant="light" color="green">
          {t('quiz.status.submitted')}
        </Badge>
        {row.scores_visible && mine.score !== null ? (
          <Text size="sm" ff="monospace">
            {t('quiz.scoreOf', { score: format.number(mine.score), total: format.number(row.total_points) })}
          </Text>
        ) : null}
      </Group>
    );
  }
  if (mine?.status === 'in_progress') {
    return (
      <Badge variant="light" color="orange">
        {t('quiz.status.in_progress')}
      </Badge>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {t('quiz.status.notSubmitted')}
    </Text>
  );
}

function EditorActions({ row, onEdit }: { row: QuizInCourse; onEdit: (quizId: number) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteQuiz(row.quiz_id),
    onSuccess: async () => {
      notifySuccess(t('quiz.editor.deleted', { title: row.title }));
      await queryClient.invalidateQueries({ queryKey: quizKeys.lists(row.quiz_course.course_id) });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('quiz.editor.deleteFailed') }),
  });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('quiz.editor.delete'),
      children: (
        <>
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600} mt="xs">
            {row.title}
          </Text>
        </>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPencil size={14} aria-hidden />}
        onClick={() => onEdit(row.quiz_id)}
        aria-label={t('quiz.list.editNamed', { title: row.title })}
      >
        {t('quiz.list.edit')}
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        component={Link}
        to={`${detailPath(row)}?tab=results`}
        leftSection={<IconChartBar size={14} aria-hidden />}
        aria-label={t('quiz.list.resultsNamed', { title: row.title })}
      >
        {t('quiz.list.results')}
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        loading={remove.isPending}
        onClick={confirmDelete}
        aria-label={t('quiz.list.deleteNamed', { title: row.title })}
      >
        {t('common.delete')}
      </Button>
    </Group>
  );
}
