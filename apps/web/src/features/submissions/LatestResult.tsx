import { Alert, Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { Section } from '../../ui/Section.tsx';
import { countTests } from '../../ui/test-count.ts';
import { useSession } from '../auth/session.ts';
import { EvaluationBody } from './EvaluationBody.tsx';
import { NotFinalNote } from './FinalSubmissionNote.tsx';
import { ResultOutcome } from './ResultOutcome.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { SubmissionStateNote } from './SubmissionStateNote.tsx';
import { TestResultList } from './TestResultList.tsx';
import { isInProgress } from './status.ts';
import { myAssignmentSubmissionsQuery, submissionQuery } from './submissions.queries.ts';

/**
 * The reader's latest submission to this assignment, under the editor: whether every test passed, and
 * each test with the first failing one the reader may see opened. Nothing before a first submission.
 */
export function LatestResult({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const list = useQuery({
    ...myAssignmentSubmissionsQuery(courseId, userId ?? 0, assignmentId),
    enabled: userId !== null,
  });
  const latest = list.data?.results[0];
  const detail = useQuery({ ...submissionQuery(latest?.id ?? 0), enabled: latest !== undefined });
  if (!latest) return null;
  const submission = detail.data?.id === latest.id ? detail.data : undefined;

  return (
    <Section
      title={t('submissions.latest.title')}
      actions={
        <Anchor
          component={Link}
          size="sm"
          to={pathTo('SubmissionDetail', { course_id: courseId, submission_id: latest.id })}
        >
          {t('submissions.number', { id: latest.id })}
        </Anchor>
      }
    >
      {submission ? (
        <LatestResultBody submission={submission} />
      ) : (
        <Group gap="xs">
          <StatusBadge status={latest.status} score={latest.score} max={latest.max_score} size="sm" />
          <Loader size="xs" aria-hidden />
        </Group>
      )}
    </Section>
  );
}

function LatestResultBody({ submission }: { submission: SubmissionDetail }) {
  const { t } = useTranslation();
  const { passed, count } = countTests(submission.evaluations);
  const graded = submission.status === 'Completed' && count > 0;
  return (
    <Stack gap="sm">
      {/* Only the state is live: announcing every test each time the page polls would drown it. */}
      <Stack gap="xs" aria-live="polite">
        <Group gap="xs">
          <StatusBadge
            status={submission.status}
            score={submission.score}
            max={submission.max_score}
            size="sm"
          />
          {isInProgress(submission.status) ? <Loader size="xs" aria-hidden /> : null}
        </Group>
        {isInProgress(submission.status) ? (
          <>
            <SubmissionStateNote submission={submission} size="sm" />
            <Text size="sm">{t('submissions.results.waiting')}</Text>
          </>
        ) : null}
        {submission.status === 'InvalidFormat' || submission.status === 'InternalError' ? (
          <Alert color={submission.status === 'InvalidFormat' ? 'orange' : 'red'} p="xs">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {submission.message || t('submissions.detail.noMessage')}
            </Text>
          </Alert>
        ) : null}
        {graded ? (
          <ResultOutcome
            passed={passed}
            count={count}
            score={submission.score}
            max={submission.max_score}
            scope="all"
          />
        ) : null}
      </Stack>
      {/* The reader's own latest submission: they may choose their final one. */}
      <NotFinalNote submission={submission} canChoose />
      {graded ? (
        <TestResultList
          // A new result opens its own first failing test.
          key={submission.id}
          results={submission.evaluations}
          renderBody={(evaluation) => (
            <EvaluationBody evaluation={evaluation} canManage={false} submissionId={submission.id} />
          )}
        />
      ) : null}
    </Stack>
  );
}
