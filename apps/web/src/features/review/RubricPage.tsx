import { Alert, Button, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Rubric } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../i18n/format.ts';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Section } from '../../ui/Section.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import type { AssignmentRef } from './review.api.ts';
import { rubricQuery, useSaveRubric } from './review.queries.ts';
import { roundPoints } from './review-score.ts';
import { RubricItemEditor } from './RubricItemEditor.tsx';
import {
  blankItem,
  draftOf,
  moveItem,
  rubricSaveBody,
  usesAffected,
  type RubricDraft,
} from './rubric-form.ts';
import { useReviewPage } from './useReviewPage.ts';

/**
 * An assignment's rubric (issue 39): the weights, the rubric's maximum, and the items in their order.
 * A save that changes the points of items already ticked in gradings says first how many it recomputes.
 */
export function RubricPage() {
  const { t } = useTranslation();
  const { ref, assignmentId, isEditor } = useReviewPage();
  const rubric = useQuery({ ...rubricQuery(ref), enabled: isEditor && assignmentId !== null });
  if (!isEditor || assignmentId === null) return <NotFoundPage />;
  if (rubric.isError) {
    return (
      <>
        <Title order={1}>{t('routes.rubric')}</Title>
        <ErrorState error={rubric.error} onRetry={() => void rubric.refetch()} />
      </>
    );
  }
  if (!rubric.data) return <PageLoader />;
  return <RubricEditor rubric={rubric.data} assignment={ref} />;
}

function RubricEditor({ rubric, assignment }: { rubric: Rubric; assignment: AssignmentRef }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const save = useSaveRubric(assignment);
  const [draft, setDraft] = useState<RubricDraft>(() => draftOf(rubric));
  const [recomputed, setRecomputed] = useState<number | null>(null);
  const maximum = roundPoints(
    draft.autograde_weight * rubric.autograde_max + draft.rubric_weight * draft.rubric_max,
  );

  const setItems = (items: RubricDraft['items']) => setDraft({ ...draft, items });
  const doSave = () =>
    save.mutate(rubricSaveBody(draft), {
      onSuccess: (saved) => {
        setDraft(draftOf(saved));
        setRecomputed(saved.recomputed);
        notifySuccess(t('grading.rubricEditor.saved'));
      },
    });
  const submit = () => {
    const affected = usesAffected(rubric.items, draft);
    if (affected === 0) return doSave();
    modals.openConfirmModal({
      title: t('grading.rubricEditor.confirmTitle'),
      children: <Text size="sm">{t('grading.rubricEditor.confirm', { count: affected })}</Text>,
      labels: { confirm: t('grading.rubricEditor.confirmAction'), cancel: t('common.cancel') },
      onConfirm: doSave,
    });
  };
  const number = (key: 'autograde_weight' | 'rubric_weight' | 'rubric_max') => (value: string | number) =>
    setDraft({ ...draft, [key]: typeof value === 'number' ? value : 0 });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1}>{t('routes.rubric')}</Title>
        <Button
          variant="default"
          component={Link}
          to={pathTo('Grading', { course_id: assignment.courseId, assignment_id: assignment.assignmentId })}
        >
          {t('grading.rubricEditor.toQueue')}
        </Button>
      </Group>
      <Section title={t('grading.rubricEditor.settings')}>
        <Stack gap="xs">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <NumberInput
              label={t('grading.rubricEditor.autogradeWeight')}
              value={draft.autograde_weight}
              min={0}
              max={10}
              step={0.1}
              decimalScale={2}
              w={170}
              onChange={number('autograde_weight')}
            />
            <NumberInput
              label={t('grading.rubricEditor.rubricWeight')}
              value={draft.rubric_weight}
              min={0}
              max={10}
              step={0.1}
              decimalScale={2}
              w={170}
              onChange={number('rubric_weight')}
            />
            <NumberInput
              label={t('grading.rubricEditor.rubricMax')}
              value={draft.rubric_max}
              min={0}
              max={1000}
              decimalScale={2}
              w={170}
              onChange={number('rubric_max')}
            />
          </Group>
          <Text size="sm" fw={600} aria-live="polite">
            {t('grading.rubricEditor.maximum', { max: format.number(maximum) })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('grading.rubricEditor.formula')}
          </Text>
        </Stack>
      </Section>
      <Section title={t('grading.rubricEditor.items')}>
        <Stack gap="sm">
          {draft.items.length === 0 ? <Text c="dimmed">{t('grading.rubricEditor.empty')}</Text> : null}
          <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
            {draft.items.map((item, index) => (
              <RubricItemEditor
                key={item.key}
                item={item}
                position={index}
                count={draft.items.length}
                onChange={(changed) =>
                  setItems(draft.items.map((other) => (other.key === item.key ? changed : other)))
                }
                onMove={(step) => setItems(moveItem(draft.items, index, step))}
                onRemove={() => setItems(draft.items.filter((other) => other.key !== item.key))}
              />
            ))}
          </Stack>
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setItems([...draft.items, blankItem(draft.items.at(-1)?.group ?? '')])}
            >
              {t('grading.rubricEditor.add')}
            </Button>
          </Group>
        </Stack>
      </Section>
      {save.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(save.error, t)}
        </Alert>
      ) : null}
      {recomputed !== null ? (
        <Alert color="green" role="status">
          {t('grading.rubricEditor.recomputed', { count: recomputed })}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button
          leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          loading={save.isPending}
          disabled={draft.items.some((item) => !item.title.trim())}
          onClick={submit}
        >
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
