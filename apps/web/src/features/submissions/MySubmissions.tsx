import { Anchor, Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { assignmentKeys } from '../assignments/assignments.queries.ts';
import { useSession } from '../auth/session.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { SubmissionStateNote } from './SubmissionStateNote.tsx';
import { myAssignmentSubmissionsQuery, submissionKeys } from './submissions.queries.ts';
import { useWhenSettled } from './useWhenSettled.ts';

/**
 * The reader's latest submissions to this assignment, updating by themselves while any is waiting or
 * running. When one finishes, the score and the ranking refresh.
 */
export function MySubmissions({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.userId);
  const submissions = useQuery({
    ...myAssignmentSubmissionsQuery(courseId, userId ?? 0, assignmentId),
    enabled: userId !== null,
  });
  const rows = submissions.data?.results;
  useWhenSettled(rows, () => {
    void queryClient.invalidateQueries({ queryKey: assignmentKeys.totalScore(assignmentId, courseId) });
    void queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) });
    void queryClient.invalidateQueries({ queryKey: submissionKeys.leaderboard(assignmentId, courseId) });
  });

  let body: React.ReactNode;
  if (submissions.isError)
    body = <ErrorState error={submissions.error} onRetry={() => void submissions.refetch()} />;
  else if (!rows) body = <Skeleton height={60} />;
  else if (rows.length === 0) body = <Text size="sm">{t('submissions.mine.none')}</Text>;
  else {
    body = (
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {rows.map((submission) => (
          <SubmissionRow key={submission.id} submission={submission} />
        ))}
      </Stack>
    );
  }

  return (
    <Section
      title={t('submissions.mine.title')}
      actions={
        <Anchor
          component={Link}
          size="sm"
          to={`${pathTo('Submission', { course_id: courseId })}?assignment=${assignmentId}`}
        >
          {t('submissions.mine.all')}
        </Anchor>
      }
    >
      <div aria-live="polite">{body}</div>
    </Section>
  );
}

function SubmissionRow({ submission }: { submission: Submission }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <li>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Anchor
            component={Link}
            size="sm"
            fw={600}
            to={pathTo('SubmissionDetail', { course_id: submission.course_id, submission_id: submission.id })}
          >
            {t('submissions.number', { id: submission.id })}
          </Anchor>
          <Text size="xs" c="dimmed">
            {format.dateTime(submission.created_at)}
          </Text>
          <SubmissionStateNote submission={submission} />
        </Stack>
        <Stack gap={4} align="flex-end">
          <StatusBadge
            status={submission.status}
            score={submission.score}
            max={submission.max_score}
            size="sm"
          />
          {submission.score !== null ? (
            <Text size="sm" ff="monospace">
              {submission.score} / {submission.max_score ?? '–'}
            </Text>
          ) : null}
          <Group gap={4}>
            {submission.is_final ? (
              <Badge size="xs" variant="light" color="blue">
                {t('submissions.isFinal')}
              </Badge>
            ) : null}
            {submission.is_late ? (
              <Badge size="xs" variant="light" color="orange">
                {t('submissions.late')}
              </Badge>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </li>
  );
}
