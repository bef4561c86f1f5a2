import { Button, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconListCheck, IconMessage2Question, IconPlayerTrackNext } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ReviewStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { memberName } from '../courses/member-name.ts';
import { QueueProgress } from './QueueProgress.tsx';
import { QueueTable } from './QueueTable.tsx';
import { ReleaseButtons } from './ReleaseButtons.tsx';
import { SavedCommentsButton } from './SavedCommentsDialog.tsx';
import { nextUngraded } from './queue-order.ts';
import type { QueueFilter } from './review.api.ts';
import { reviewQueueQuery } from './review.queries.ts';
import { useReviewPage } from './useReviewPage.ts';

function filterOf(params: URLSearchParams): QueueFilter {
  const grader = Number.parseInt(params.get('grader') ?? '', 10);
  const status = ReviewStatus.safeParse(params.get('status'));
  return {
    ...(grader > 0 ? { grader_id: grader } : {}),
    ...(status.success ? { status: status.data } : {}),
  };
}

/**
 * An assignment's grading queue (issue 39): one row per student, how far grading has come, the next
 * ungraded submission, and releasing the gradings to the students. Filters sit in the URL
 * (`?grader=&status=`). Editors and staff.
 */
export function GradingQueuePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { course, ref, assignmentId, isEditor } = useReviewPage();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterOf(searchParams);
  const queue = useQuery({ ...reviewQueueQuery(ref, filter), enabled: isEditor && assignmentId !== null });
  // "Next ungraded" follows the whole queue, whatever the filter shows.
  const whole = useQuery({ ...reviewQueueQuery(ref), enabled: isEditor && assignmentId !== null });

  if (!isEditor || assignmentId === null) return <NotFoundPage />;
  const setFilter = (key: 'grader' | 'status', value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearchParams(next, { replace: true });
  };
  const next = whole.data ? nextUngraded(whole.data.rows, null) : null;
  const gradePath = (submissionId: number) =>
    pathTo('GradeSubmission', {
      course_id: course.id,
      assignment_id: assignmentId,
      submission_id: submissionId,
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{t('routes.grading')}</Title>
          {queue.data ? <Text c="dimmed">{queue.data.assignment_title}</Text> : null}
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Button
            leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
            disabled={next === null}
            onClick={() => next !== null && void navigate(gradePath(next))}
          >
            {t('grading.nextUngraded')}
          </Button>
          {queue.data ? <ReleaseButtons queue={queue.data} assignment={ref} /> : null}
        </Group>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button
          variant="default"
          component={Link}
          to={pathTo('Rubric', { course_id: course.id, assignment_id: assignmentId })}
          leftSection={<IconListCheck size={16} aria-hidden />}
        >
          {t('grading.rubricLink')}
        </Button>
        <Button
          variant="default"
          component={Link}
          to={`${pathTo('RegradeRequests', { course_id: course.id })}?assignment=${assignmentId}`}
          leftSection={<IconMessage2Question size={16} aria-hidden />}
        >
          {t('grading.regradesLink')}
        </Button>
        <SavedCommentsButton courseId={course.id} />
      </Group>
      {queue.isError ? <ErrorState error={queue.error} onRetry={() => void queue.refetch()} /> : null}
      {queue.data ? (
        <>
          <QueueProgress progress={queue.data.progress} />
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('grading.filter.grader')}
              placeholder={t('grading.filter.anyGrader')}
              clearable
              data={queue.data.graders.map((grader) => ({
                value: String(grader.id),
                label: memberName(grader, i18n.language),
              }))}
              value={filter.grader_id ? String(filter.grader_id) : null}
              onChange={(value) => setFilter('grader', value)}
            />
            <Select
              label={t('grading.filter.status')}
              placeholder={t('grading.filter.anyStatus')}
              clearable
              data={[
                { value: 'none', label: t('grading.status.none') },
                { value: 'draft', label: t('grading.status.draft') },
                { value: 'graded', label: t('grading.status.graded') },
              ]}
              value={filter.status ?? null}
              onChange={(value) => setFilter('status', value)}
            />
          </Group>
          {queue.data.rows.length === 0 ? (
            <Text c="dimmed">{t('grading.queue.empty')}</Text>
          ) : (
            <QueueTable rows={queue.data.rows} assignment={ref} />
          )}
        </>
      ) : queue.isError ? null : (
        <Skeleton height={240} aria-busy="true" />
      )}
    </Stack>
  );
}
