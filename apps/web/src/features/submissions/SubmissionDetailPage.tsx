import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowsDiff, IconBan, IconFlag, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { assignmentKeys, parseId } from '../assignments/assignments.queries.ts';
import { useSession } from '../auth/session.ts';
import { memberName } from '../courses/member-name.ts';
import { FeedbackPanel } from '../feedback/FeedbackPanel.tsx';
import { useMarkPageRead } from '../notifications/useMarkPageRead.ts';
import { EvaluationResults } from './EvaluationResults.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { SubmissionFiles } from './SubmissionFiles.tsx';
import { SubmissionStateNote } from './SubmissionStateNote.tsx';
import { isCancelable, isInProgress } from './status.ts';
import { NotFinalNote, useIsNotFinal } from './FinalSubmissionNote.tsx';
import { cancelSubmission, regradeSubmission } from './submissions.api.ts';
import { submissionKeys, submissionQuery } from './submissions.queries.ts';
import { useSelectFinal } from './useSelectFinal.tsx';
import { useWhenSettled } from './useWhenSettled.ts';

/** One submission: its state (live while grading), code and files, and the result of every test. */
export function SubmissionDetailPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const submissionId = parseId(useParams().submission_id);
  const submission = useQuery({ ...submissionQuery(submissionId ?? 0), enabled: submissionId !== null });

  if (submissionId === null || isApiError(submission.error, 404)) return <NotFoundPage />;
  if (submission.data && submission.data.course_id !== course.id) return <NotFoundPage />;
  if (submission.isError && !submission.data) {
    return (
      <>
        <Title order={1}>{t('routes.submissionDetail')}</Title>
        <ErrorState error={submission.error} onRetry={() => void submission.refetch()} />
      </>
    );
  }
  if (!submission.data) return <PageLoader />;
  return <SubmissionView submission={submission.data} />;
}

function SubmissionView({ submission }: { submission: SubmissionDetail }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.userId);
  const refreshRelated = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
      queryClient.invalidateQueries({ queryKey: assignmentKeys.all }),
    ]);
  useWhenSettled([submission], () => void refreshRelated());
  // The result is on the screen: a "graded" notification about it has nothing left to tell.
  useMarkPageRead(
    pathTo('SubmissionDetail', { course_id: submission.course_id, submission_id: submission.id }),
    !isInProgress(submission.status),
  );

  const onSuccess = (message: string) => async () => {
    notifySuccess(message);
    await refreshRelated();
  };
  const final = useSelectFinal(submission);
  // When another submission is final, the note saying so holds the button instead.
  const isNotFinal = useIsNotFinal(submission);
  const regrade = useMutation({
    mutationFn: () => regradeSubmission(submission.id),
    onSuccess: onSuccess(t('submissions.regrade.done', { id: submission.id })),
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.regrade.failed') }),
  });
  const cancel = useMutation({
    mutationFn: () => cancelSubmission(submission.id),
    onSuccess: onSuccess(t('submissions.cancel.done', { id: submission.id })),
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.cancel.failed') }),
  });

  // Only a graded submission can be final; its author or a manager of the course chooses it.
  const isAuthor = submission.user.id === userId;
  const canChooseFinal = isAuthor || submission.can_manage;
  const canSelectFinal =
    submission.status === 'Completed' &&
    !submission.is_final &&
    !submission.is_reference &&
    !isNotFinal &&
    canChooseFinal;
  // The same people compare it with their other submissions (editors: also with the reference).
  const canCompare = canChooseFinal;

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1}>
          {t('submissions.detail.heading', { id: submission.id, title: submission.assignment_title })}
        </Title>
        <Group gap="xs" aria-live="polite">
          <StatusBadge
            status={submission.status}
            score={submission.score}
            max={submission.max_score}
            size="lg"
          />
          <Text fw={700} ff="monospace" size="lg">
            {t('submissions.detail.score', {
              score: submission.score === null ? '–' : submission.score,
              max: submission.max_score ?? '–',
            })}
          </Text>
          {submission.is_final ? (
            <Badge variant="light" color="blue">
              {t('submissions.final.badge')}
            </Badge>
          ) : null}
          {submission.is_late ? (
            <Badge variant="light" color="orange">
              {t('submissions.late')}
            </Badge>
          ) : null}
          {submission.is_reference ? (
            <Badge variant="light" color="grape">
              {t('submissions.reference')}
            </Badge>
          ) : null}
        </Group>
        <SubmissionStateNote submission={submission} size="sm" />
      </Stack>

      <Group gap="xs">
        {canSelectFinal ? (
          <Button
            leftSection={<IconFlag size={16} aria-hidden />}
            onClick={final.confirm}
            loading={final.isPending}
          >
            {t('submissions.final.select')}
          </Button>
        ) : null}
        {submission.can_manage ? (
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => regrade.mutate()}
              loading={regrade.isPending}
            >
              {t('submissions.regrade.action')}
            </Button>
            {isCancelable(submission.status) ? (
              <Button
                variant="outline"
                color="red"
                leftSection={<IconBan size={16} aria-hidden />}
                onClick={() => cancel.mutate()}
                loading={cancel.isPending}
              >
                {t('submissions.cancel.action')}
              </Button>
            ) : null}
          </>
        ) : null}
        {canCompare ? (
          <Button
            variant="default"
            component={Link}
            to={pathTo('SubmissionCompare', {
              course_id: submission.course_id,
              submission_id: submission.id,
            })}
            leftSection={<IconArrowsDiff size={16} aria-hidden />}
          >
            {t('submissions.compare.action')}
          </Button>
        ) : null}
        <Button
          variant="subtle"
          component={Link}
          to={pathTo('AssignmentDetail', {
            course_id: submission.course_id,
            assignment_id: submission.assignment_id,
          })}
        >
          {t('submissions.detail.toAssignment')}
        </Button>
      </Group>
      <NotFinalNote submission={submission} canChoose={canChooseFinal} />

      {submission.status === 'InvalidFormat' || submission.status === 'InternalError' ? (
        <Alert
          color={submission.status === 'InvalidFormat' ? 'orange' : 'red'}
          title={t(`status.${submission.status}`)}
          role="alert"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {submission.message || t('submissions.detail.noMessage')}
          </Text>
        </Alert>
      ) : null}

      <Section title={t('submissions.detail.about')}>
        <Group gap="xl" wrap="wrap">
          <Fact term={t('submissions.columns.user')} value={memberName(submission.user, i18n.language)} />
          <Fact term={t('submissions.columns.submittedAt')} value={format.dateTime(submission.created_at)} />
          <Fact term={t('submissions.columns.dueDate')} value={format.deadline(submission.due_at)} />
          <Fact
            term={t('submissions.detail.gradedAt')}
            value={submission.graded_at ? format.dateTime(submission.graded_at) : '–'}
          />
        </Group>
      </Section>

      <FeedbackPanel submission={submission} isAuthor={isAuthor} />
      <EvaluationResults submission={submission} />
      <SubmissionFiles files={submission.files} />
    </Stack>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {term}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Stack>
  );
}
