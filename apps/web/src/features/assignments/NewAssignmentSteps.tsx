import { Button, Group, Skeleton, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { ReferenceRunPanel } from './ReferenceRunPanel.tsx';
import { assignmentQuery } from './assignments.queries.ts';
import { useEditorTestCases } from './useEditorTestCases.ts';

/** "Step 2 of 3: Test cases": where focus goes when the step changes (the dialog's title is the h2). */
export function StepHeading({
  ref,
  step,
  total,
  name,
}: {
  ref: Ref<HTMLHeadingElement>;
  step: number;
  total: number;
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <Title order={3} size="h4" ref={ref} tabIndex={-1}>
      {t('assignments.wizard.stepHeading', { step, total, name })}
    </Title>
  );
}

/** Back on the left; "Finish later" (when given) and the step's primary action on the right. */
export function StepNav({
  onBack,
  onLater,
  next,
}: {
  onBack: () => void;
  onLater?: () => void;
  next: { label: string; onClick: () => void };
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="xs">
      <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
        {t('assignments.wizard.back')}
      </Button>
      <Group gap="xs">
        {onLater ? (
          <Button variant="subtle" onClick={onLater}>
            {t('assignments.wizard.finishLater')}
          </Button>
        ) : null}
        <Button onClick={next.onClick}>{next.label}</Button>
      </Group>
    </Group>
  );
}

/** The reference run of the new assignment, with the reference solution as saved in Details. */
export function ReferenceStep({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const detail = useQuery(assignmentQuery(assignmentId, courseId));
  const { tests } = useEditorTestCases(assignmentId, courseId);
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  if (!detail.data) return <Skeleton height={200} />;
  const assignment = detail.data.assignment;
  return (
    <ReferenceRunPanel
      assignmentId={assignmentId}
      courseId={courseId}
      referenceSolution={assignment.view === 'editor' ? assignment.reference_solution : ''}
      hasTests={tests.length > 0}
      headingOrder={4}
    />
  );
}
