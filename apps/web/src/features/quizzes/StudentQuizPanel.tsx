import { Alert, Box, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCalendarTime, IconFileCheck, IconLock, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuizInCourse } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import classes from './QuizFacts.module.css';
import { Fact, useReviewText, useTimeLimitText } from './QuizIntro.tsx';
import { QuizTaker } from './QuizTaker.tsx';
import { startQuizAttempt } from './quizzes.api.ts';
import { quizContentQuery, quizKeys } from './quizzes.queries.ts';

/** What a student sees below the facts: the summary once submitted, a note, Start, or the questions. */
export function StudentQuizPanel({ detail, courseId }: { detail: QuizInCourse; courseId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const mine = detail.my_submission;
  const quizCourse = detail.quiz_course;

  if (mine?.status === 'submitted') return <SubmittedSummary detail={detail} courseId={courseId} />;
  if (quizCourse.state === 'upcoming') {
    return (
      <Alert color="blue" icon={<IconCalendarTime aria-hidden />} title={t('quiz.take.notOpenTitle')}>
        <Text size="sm">{t('quiz.take.opensOn', { date: format.deadline(quizCourse.opens_at) })}</Text>
      </Alert>
    );
  }
  if (quizCourse.state === 'closed') {
    return (
      <Alert color="gray" icon={<IconLock aria-hidden />} title={t('quiz.take.closedTitle')}>
        <Text size="sm">
          {t('quiz.take.closedNotSubmitted', { date: format.deadline(quizCourse.closes_at) })}
        </Text>
      </Alert>
    );
  }
  if (quizCourse.time_limit_minutes !== null && mine === null) {
    return <StartPanel detail={detail} courseId={courseId} />;
  }
  return <QuestionsLoader detail={detail} courseId={courseId} />;
}

function QuestionsLoader({ detail, courseId }: { detail: QuizInCourse; courseId: number }) {
  const { t } = useTranslation();
  const content = useQuery(quizContentQuery(detail.quiz_id, courseId));
  if (isApiError(content.error, 403) && content.error.body.code === 'quiz_not_started') {
    return <StartPanel detail={detail} courseId={courseId} />;
  }
  if (isApiError(content.error, 403)) {
    return (
      <Alert color="gray" icon={<IconLock aria-hidden />} title={t('quiz.take.unavailableTitle')}>
        <Text size="sm">{errorMessage(content.error, t)}</Text>
      </Alert>
    );
  }
  if (content.isError) return <ErrorState error={content.error} onRetry={() => void content.refetch()} />;
  if (!content.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  return <QuizTaker quizId={detail.quiz_id} courseId={courseId} content={content.data} />;
}

/** A timed quiz: the time limit starts only when the student presses Start. */
function StartPanel({ detail, courseId }: { detail: QuizInCourse; courseId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const timeLimit = useTimeLimitText();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: () => startQuizAttempt(detail.quiz_course.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: quizKeys.content(detail.quiz_id, courseId) });
      await queryClient.invalidateQueries({ queryKey: quizKeys.inCourse(detail.quiz_id, courseId) });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('quiz.take.startFailed') }),
  });
  return (
    <Section title={t('quiz.take.startTitle')}>
      <Stack gap="sm">
        <Text size="sm">
          {t('quiz.take.startHelp', {
            limit: timeLimit(detail.quiz_course.time_limit_minutes),
            date: format.deadline(detail.quiz_course.closes_at),
          })}
        </Text>
        <Text size="sm">{t('quiz.take.startOnce')}</Text>
        <Group>
          <Button
            leftSection={<IconPlayerPlay size={18} aria-hidden />}
            loading={start.isPending}
            onClick={() => start.mutate()}
          >
            {t('quiz.take.start')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

function SubmittedSummary({ detail, courseId }: { detail: QuizInCourse; courseId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const review = useReviewText();
  const mine = detail.my_submission;
  if (!mine) return null;
  const quizCourse = detail.quiz_course;
  return (
    <Section title={t('quiz.take.submittedTitle')}>
      <Stack gap="sm">
        <Box component="dl" m={0} className={classes.grid}>
          <Fact term={t('quiz.take.submittedAt')}>
            {mine.submitted_at ? format.dateTimeWithZone(mine.submitted_at) : '–'}
          </Fact>
          <Fact term={t('quiz.take.score')}>
            {detail.scores_visible && mine.score !== null
              ? t('quiz.scoreOf', {
                  score: format.number(mine.score),
                  total: format.number(detail.total_points),
                })
              : review(quizCourse.scores_visible_at, quizCourse)}
          </Fact>
          <Fact term={t('quiz.facts.answers')}>
            {detail.answers_visible
              ? t('quiz.take.answersVisibleNow')
              : review(quizCourse.answers_visible_at, quizCourse)}
          </Fact>
        </Box>
        <Group>
          <Button
            component={Link}
            variant="light"
            leftSection={<IconFileCheck size={18} aria-hidden />}
            to={pathTo('QuizSubmissionDetail', {
              course_id: courseId,
              quiz_id: detail.quiz_id,
              quiz_submission_id: mine.id,
            })}
          >
            {t('quiz.take.viewSubmission')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}
