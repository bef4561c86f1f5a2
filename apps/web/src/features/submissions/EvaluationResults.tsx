import { Accordion, Group, Loader, Text } from '@mantine/core';
import type { Evaluation, SubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Section } from '../../ui/Section.tsx';
import { EvaluationBody } from './EvaluationBody.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { isInProgress } from './status.ts';

/** Every test's verdict, points, time and memory; open one for its input, output diff and errors. */
export function EvaluationResults({
  submission,
  headingOrder = 2,
}: {
  submission: SubmissionDetail;
  /** 3 when shown inside another section. */
  headingOrder?: 2 | 3;
}) {
  const { t } = useTranslation();
  const evaluations = [...submission.evaluations].sort((a, b) => a.position - b.position);
  const correct = evaluations.filter((evaluation) => evaluation.status === 'Correct').length;

  return (
    <Section
      order={headingOrder}
      title={t('submissions.results.title')}
      actions={
        evaluations.length > 0 ? (
          <Text size="sm" c="dimmed">
            {t('submissions.results.summary', { correct, count: evaluations.length })}
          </Text>
        ) : null
      }
    >
      {evaluations.length === 0 ? (
        isInProgress(submission.status) ? (
          <Group gap="xs" role="status">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{t('submissions.results.waiting')}</Text>
          </Group>
        ) : (
          <Text size="sm">{t('submissions.results.none')}</Text>
        )
      ) : (
        <Accordion multiple variant="separated" chevronPosition="left">
          {evaluations.map((evaluation) => (
            <Accordion.Item key={evaluation.id} value={String(evaluation.id)}>
              <Accordion.Control>
                <EvaluationSummary evaluation={evaluation} />
              </Accordion.Control>
              <Accordion.Panel>
                <EvaluationBody
                  evaluation={evaluation}
                  canManage={submission.can_manage && submission.status === 'Completed'}
                  submissionId={submission.id}
                />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Section>
  );
}

function EvaluationSummary({ evaluation }: { evaluation: Evaluation }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <StatusBadge status={evaluation.status} size="sm" />
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {evaluation.test_case_name}
        </Text>
      </Group>
      <Group gap="md" wrap="wrap">
        {evaluation.reason ? (
          <Text size="xs" c="dimmed">
            {t(`submissions.reasons.${evaluation.reason}`)}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {evaluation.view === 'hidden' || evaluation.time_ms === null
            ? '–'
            : t('submissions.results.time', { ms: format.number(evaluation.time_ms) })}
        </Text>
        <Text size="xs" c="dimmed">
          {evaluation.view === 'hidden' || evaluation.memory_kb === null
            ? '–'
            : t('submissions.results.memory', { size: format.bytes(evaluation.memory_kb * 1024) })}
        </Text>
        <Text size="sm" ff="monospace" fw={600}>
          {t('submissions.results.points', { points: evaluation.points, max: evaluation.max_points })}
        </Text>
      </Group>
    </Group>
  );
}
