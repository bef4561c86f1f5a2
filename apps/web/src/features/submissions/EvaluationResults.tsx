import { Group, Loader, Text } from '@mantine/core';
import type { SubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Section } from '../../ui/Section.tsx';
import { countTests } from '../../ui/test-count.ts';
import { EvaluationBody } from './EvaluationBody.tsx';
import { TestResultList } from './TestResultList.tsx';
import { isInProgress } from './status.ts';

/**
 * Every test's verdict, points, time and memory; open one for its input, output diff and errors. The
 * header counts tests, not test cases: each collected test of a pytest file is one.
 */
export function EvaluationResults({
  submission,
  headingOrder = 2,
}: {
  submission: SubmissionDetail;
  /** One below the section it is shown in (3 inside an h2 section). */
  headingOrder?: 2 | 3 | 4 | 5;
}) {
  const { t } = useTranslation();
  const evaluations = [...submission.evaluations].sort((a, b) => a.position - b.position);
  const { passed, count } = countTests(evaluations);

  return (
    <Section
      order={headingOrder}
      title={t('submissions.results.title')}
      actions={
        evaluations.length > 0 ? (
          <Text size="sm" c="dimmed">
            {t('submissions.testsPassed', { passed, count })}
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
        <TestResultList
          // A new result opens its own first failing test.
          key={submission.id}
          results={evaluations}
          renderBody={(evaluation) => (
            <EvaluationBody
              evaluation={evaluation}
              canManage={submission.can_manage && submission.status === 'Completed'}
              submissionId={submission.id}
            />
          )}
        />
      )}
    </Section>
  );
}
