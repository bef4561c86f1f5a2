import { Alert, Anchor, Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconClockHour4 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { QuizCourse, QuizSubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import classes from './QuizFacts.module.css';
import { parseId } from '../assignments/assignments.queries.ts';
import { useSession } from '../auth/session.ts';
import { memberName } from '../courses/member-name.ts';
import { AnswerReview } from './AnswerReview.tsx';
import { Fact, useReviewText } from './QuizIntro.tsx';
import { quizInCourseQuery, quizSubmissionQuery } from './quizzes.queries.ts';

/**
 * A quiz submission: the answers per question; score and right or wrong once scores are visible; the
 * correct answers and explanations once answers are; otherwise when that will be.
 */
export function QuizSubmissionDetailPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const params = useParams();
  const quizId = parseId(params.quiz_id);
  const submissionId = parseId(params.quiz_submission_id);
  const submission = useQuery({ ...quizSubmissionQuery(submissionId ?? 0), enabled: submissionId !== null });
  // For the dates of review (the submission says only whether it is visible yet).
  const inCourse = useQuery({ ...quizInCourseQuery(quizId ?? 0, course.id), enabled: quizId !== null });

  if (quizId === null || submissionId === null || isApiError(submission.error, 404)) return <NotFoundPage />;
  if (submission.isError) {
    return (
      <>
        <Title order={1}>{t('routes.quizSubmissionDetail')}</Title>
        <ErrorState error={submission.error} onRetry={() => void submission.refetch()} />
      </>
    );
  }
  if (!submission.data) return <PageLoader />;
  const data = submission.data;
  if (data.quiz_id !== quizId || data.course_id !== course.id) return <NotFoundPage />;
  return <SubmissionView data={data} quizCourse={inCourse.data?.quiz_course ?? null} />;
}

function SubmissionView({ data, quizCourse }: { data: QuizSubmissionDetail; quizCourse: QuizCourse | null }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const review = useReviewText();
  const userId = useSession((state) => state.userId);
  const isMine = data.user.id === userId;
  const answers = new Map(data.answers.map((answer) => [answer.question_id, answer]));
  const whenVisible = (at: string | null) =>
    quizCourse ? review(at, quizCourse) : t('quiz.facts.reviewNotYet');

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1}>{data.quiz_title}</Title>
        <Group gap="xs">
          <Badge variant="light" color={data.status === 'submitted' ? 'green' : 'orange'}>
            {t(`quiz.status.${data.status}`)}
          </Badge>
          <Text size="sm" c="dimmed">
            {isMine
              ? t('quiz.review.mySubmission', { id: data.id })
              : t('quiz.review.submissionOf', { id: data.id, name: memberName(data.user, i18n.language) })}
          </Text>
        </Group>
        <Anchor
          component={Link}
          size="sm"
          to={pathTo('QuizDetailV2', {
            course_id: data.course_id,
            quiz_id: data.quiz_id,
            quiz_course_id: data.quiz_course_id,
          })}
        >
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            {t('quiz.review.backToQuiz')}
          </Group>
        </Anchor>
      </Stack>

      <Section title={t('quiz.review.summary')}>
        <Box component="dl" m={0} className={classes.grid}>
          <Fact term={t('quiz.take.submittedAt')}>
            {data.submitted_at ? format.dateTimeWithZone(data.submitted_at) : '–'}
          </Fact>
          <Fact term={t('quiz.take.score')}>
            {data.scores_visible && data.score !== null
              ? t('quiz.scoreOf', { score: format.number(data.score), total: format.number(data.max_score) })
              : '–'}
          </Fact>
        </Box>
      </Section>

      {!data.scores_visible || !data.answers_visible ? (
        <Alert color="blue" icon={<IconClockHour4 aria-hidden />} title={t('quiz.review.laterTitle')}>
          <Stack gap={4}>
            {!data.scores_visible ? (
              <Text size="sm">
                {t('quiz.review.scoresLater', { when: whenVisible(quizCourse?.scores_visible_at ?? null) })}
              </Text>
            ) : null}
            {!data.answers_visible ? (
              <Text size="sm">
                {t('quiz.review.answersLater', { when: whenVisible(quizCourse?.answers_visible_at ?? null) })}
              </Text>
            ) : null}
          </Stack>
        </Alert>
      ) : null}

      <Stack gap="md">
        {data.questions.map((question, index) => (
          <AnswerReview
            key={question.id}
            question={question}
            answer={answers.get(question.id)}
            number={index + 1}
            isMine={isMine}
          />
        ))}
      </Stack>
    </Stack>
  );
}
