import { Suspense } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconEyeOff, IconPencil } from '@tabler/icons-react';
import type { Evaluation } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { EvaluationItems } from './EvaluationItems.tsx';
import { FullEvaluationDetails } from './FullEvaluationDetails.tsx';
import { lazyComponent } from '../../ui/lazyComponent.ts';

// Loaded when an editor opens it: a student's page (the assignment's results) does not carry the form.
const OverrideDialog = lazyComponent(() =>
  import('./OverrideDialog.tsx').then((m) => ({ default: m.OverrideDialog })),
);

/**
 * One test's details as visibility allows: everything for a `full` evaluation (input, expected vs
 * actual with a line diff, error output, the checker's message; a pytest file's tests with their
 * messages); only the verdict for a hidden test, and for a hidden pytest file each test's outcome.
 */
export function EvaluationBody({
  evaluation,
  canManage,
  submissionId,
}: {
  evaluation: Evaluation;
  /** An editor looking at a Completed submission: the result can be changed by hand. */
  canManage: boolean;
  submissionId: number;
}) {
  const { t } = useTranslation();
  const [overrideOpened, override] = useDisclosure(false);
  return (
    <Stack gap="sm">
      {evaluation.overridden ? (
        <Alert color="blue" p="xs" title={t('submissions.override.overridden')}>
          {evaluation.comment ? <Text size="sm">{evaluation.comment}</Text> : null}
        </Alert>
      ) : null}
      {evaluation.view === 'hidden' ? (
        <>
          <Group gap="xs">
            <IconEyeOff size={16} aria-hidden />
            <Text size="sm">{t('submissions.results.hiddenNote')}</Text>
          </Group>
          {evaluation.items.length > 0 ? (
            <EvaluationItems
              items={evaluation.items}
              testName={evaluation.test_case_name}
              maxPoints={evaluation.max_points}
            />
          ) : null}
        </>
      ) : (
        <FullEvaluationDetails result={evaluation} />
      )}
      {canManage ? (
        <Group>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={override.open}
            aria-label={t('submissions.override.openNamed', { name: evaluation.test_case_name })}
          >
            {t('submissions.override.open')}
          </Button>
          {overrideOpened ? (
            <Suspense fallback={null}>
              <OverrideDialog evaluation={evaluation} submissionId={submissionId} onClose={override.close} />
            </Suspense>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
