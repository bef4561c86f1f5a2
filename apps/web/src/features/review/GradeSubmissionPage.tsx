import { Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import type { Review } from '@kadai/contracts';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Section } from '../../ui/Section.tsx';
import { memberName } from '../courses/member-name.ts';
import { EvaluationResults } from '../submissions/EvaluationResults.tsx';
import { submissionQuery } from '../submissions/submissions.queries.ts';
import { AuditPanel } from './AuditPanel.tsx';
import { GradingNav } from './GradingNav.tsx';
import { RegradeAnswer } from './RegradeAnswer.tsx';
import { ReviewCodeFile } from './ReviewCodeFile.tsx';
import { ReviewStatusBadge } from './ReviewStatusBadge.tsx';
import { RubricPanel } from './RubricPanel.tsx';
import { SavedCommentsButton } from './SavedCommentsDialog.tsx';
import { reviewQuery, reviewQueueQuery } from './review.queries.ts';
import { useReviewPage } from './useReviewPage.ts';

/**
 * Grading one submission (issue 39): its files with comments on lines and the autograder's results on
 * the left; the rubric, the adjustment, the overall comment and the saves on the right; previous and
 * next student in the queue's order. Editors and staff.
 */
export function GradeSubmissionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { course, ref, assignmentId, submissionId, isEditor } = useReviewPage();
  const enabled = isEditor && assignmentId !== null && submissionId !== null;
  const review = useQuery({ ...reviewQuery(submissionId ?? 0), enabled });
  const submission = useQuery({ ...submissionQuery(submissionId ?? 0), enabled });
  const queue = useQuery({ ...reviewQueueQuery(ref), enabled });
  const dirty = useRef(false);
  const onDirty = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);

  if (!enabled || isApiError(review.error, 404) || isApiError(review.error, 403)) return <NotFoundPage />;
  const go = (target: number) => {
    const open = () =>
      void navigate(
        pathTo('GradeSubmission', {
          course_id: course.id,
          assignment_id: assignmentId,
          submission_id: target,
        }),
      );
    if (!dirty.current) return open();
    modals.openConfirmModal({
      title: t('grading.nav.unsavedTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('grading.nav.leave'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        dirty.current = false;
        open();
      },
    });
  };

  if (review.isError) {
    return (
      <>
        <Title order={1}>{t('routes.gradeSubmission')}</Title>
        <ErrorState error={review.error} onRetry={() => void review.refetch()} />
      </>
    );
  }
  if (!review.data) return <PageLoader />;
  const data = review.data;

  return (
    <Stack gap="lg">
      <GradingHeader review={data} />
      {queue.data ? <GradingNav rows={queue.data.rows} submissionId={data.submission_id} onGo={go} /> : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }} style={{ minWidth: 0 }}>
          <Stack gap="lg">
            <Section title={t('grading.files')}>
              {submission.isError ? (
                <ErrorState error={submission.error} onRetry={() => void submission.refetch()} />
              ) : !submission.data ? (
                <Skeleton height={200} aria-busy="true" />
              ) : submission.data.files.length === 0 ? (
                <Text size="sm">{t('submissions.files.none')}</Text>
              ) : (
                <Stack gap="lg">
                  {submission.data.files.map((file) => (
                    <ReviewCodeFile key={file.id} file={file} review={data} />
                  ))}
                </Stack>
              )}
            </Section>
            {submission.data ? <EvaluationResults submission={submission.data} /> : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} style={{ minWidth: 0 }}>
          <Stack gap="lg">
            <RubricPanel
              key={`${data.submission_id}-${data.version}`}
              review={data}
              assignment={ref}
              onDirty={onDirty}
              onReload={() => void review.refetch()}
            />
            {data.regrade_requests.length > 0 ? (
              <Section title={t('grading.regrade.title')}>
                <Stack gap="md">
                  {data.regrade_requests.map((request) => (
                    <RegradeAnswer key={request.id} request={request} />
                  ))}
                </Stack>
              </Section>
            ) : null}
            <Group>
              <SavedCommentsButton courseId={course.id} />
            </Group>
            <AuditPanel submissionId={data.submission_id} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function GradingHeader({ review }: { review: Review }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  return (
    <Stack gap={6}>
      <Title order={1}>{t('grading.heading', { name: memberName(review.user, i18n.language) })}</Title>
      <Group gap="xs" wrap="wrap">
        <ReviewStatusBadge status={review.status} />
        {review.grader ? (
          <Text size="sm" c="dimmed">
            {t('grading.gradedBy', {
              name: memberName(review.grader, i18n.language),
              when: review.graded_at ? format.dateTime(review.graded_at) : '',
            })}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          {review.released_at
            ? t('grading.releasedAt', { when: format.dateTime(review.released_at) })
            : t('grading.notReleased')}
        </Text>
      </Group>
    </Stack>
  );
}
