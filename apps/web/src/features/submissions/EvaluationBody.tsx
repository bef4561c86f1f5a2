import { Alert, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconEyeOff, IconPencil } from '@tabler/icons-react';
import type { Evaluation } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { OutputBlock } from '../../ui/OutputBlock.tsx';
import { OutputDiff } from './OutputDiff.tsx';
import { OverrideDialog } from './OverrideDialog.tsx';

/**
 * One test's details as visibility allows: everything for a `full` evaluation (input, expected vs
 * actual with a line diff, error output, the checker's message); only the verdict for a hidden test.
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
        <Group gap="xs">
          <IconEyeOff size={16} aria-hidden />
          <Text size="sm">{t('submissions.results.hiddenNote')}</Text>
        </Group>
      ) : (
        <>
          <OutputDiff expected={evaluation.expected_stdout} actual={evaluation.stdout} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <OutputBlock label={t('assignments.tests.stdin')} text={evaluation.stdin} />
            <OutputBlock label={t('submissions.results.stderr')} text={evaluation.stderr} />
          </SimpleGrid>
          {evaluation.checker_message ? (
            <OutputBlock label={t('submissions.results.checker')} text={evaluation.checker_message} />
          ) : null}
          <Group gap="xs">
            <Badge variant="light" color="gray">
              {t('submissions.results.exitCode', { code: evaluation.exit_code ?? '–' })}
            </Badge>
            {evaluation.signal ? (
              <Badge variant="light" color="red">
                {t('submissions.results.signal', { signal: evaluation.signal })}
              </Badge>
            ) : null}
          </Group>
        </>
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
            <OverrideDialog evaluation={evaluation} submissionId={submissionId} onClose={override.close} />
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
