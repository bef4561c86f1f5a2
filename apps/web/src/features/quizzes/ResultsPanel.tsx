import { Anchor, Badge, Box, Button, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { QuizResults, QuizSubmissionStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import classes from './QuizFacts.module.css';
import { memberName } from '../courses/member-name.ts';
import { saveBlob } from '../../ui/download.ts';
import { QuestionStats } from './QuestionStats.tsx';
import { Fact } from './QuizIntro.tsx';
import { ReviewControls } from './ReviewControls.tsx';
import { downloadQuizResultsCsv } from './quizzes.api.ts';
import { quizResultsQuery } from './quizzes.queries.ts';

const round = (value: number) => Math.round(value * 100) / 100;

/** Editors: the results of a quiz in this course, per student and per question, and the CSV. */
export function ResultsPanel({ quizCourseId, courseId }: { quizCourseId: number; courseId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const results = useQuery(quizResultsQuery(quizCourseId));
  const download = useMutation({
    mutationFn: () => downloadQuizResultsCsv(quizCourseId),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `quiz-results-${quizCourseId}.csv`))
        notifyError(t('common.downloadDenied'));
    },
    onError: () => notifyError(t('common.downloadFailed')),
  });

  if (results.isError) return <ErrorState error={results.error} onRetry={() => void results.refetch()} />;
  if (!results.data) {
    return (
      <Stack aria-busy="true">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} height={80} />
        ))}
      </Stack>
    );
  }
  const data = results.data;
  const score = (value: number | null) =>
    value === null
      ? '–'
      : t('quiz.scoreOf', { score: format.number(round(value)), total: format.number(data.max_score) });

  return (
    <Stack gap="lg">
      <Section
        title={t('quiz.results.summary')}
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('quiz.results.csv')}
          </Button>
        }
      >
        <Box component="dl" m={0} className={classes.grid}>
          <Fact term={t('quiz.results.submitted')}>
            {t('quiz.results.submittedOf', {
              submitted: format.number(data.submitted_count),
              total: format.number(data.student_count),
            })}
          </Fact>
          <Fact term={t('quiz.results.mean')}>{score(data.mean_score)}</Fact>
          <Fact term={t('quiz.results.median')}>{score(data.median_score)}</Fact>
        </Box>
      </Section>
      <ReviewControls quizCourse={data.quiz_course} />
      <Section title={t('quiz.results.students')}>
        <StudentTable results={data} courseId={courseId} />
      </Section>
      <Section title={t('quiz.results.questions')}>
        <Stack gap="md">
          {data.questions.map((question, index) => (
            <QuestionStats key={question.question_id} question={question} number={index + 1} />
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}

const STATUS_COLORS: Record<QuizSubmissionStatus, string> = { submitted: 'green', in_progress: 'orange' };

function StudentTable({ results, courseId }: { results: QuizResults; courseId: number }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  if (results.students.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('quiz.results.noStudents')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped verticalSpacing="xs" aria-label={t('quiz.results.students')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('quiz.results.student')}</Table.Th>
            <Table.Th>{t('quiz.results.status')}</Table.Th>
            <Table.Th>{t('quiz.results.submittedAt')}</Table.Th>
            <Table.Th ta="end">{t('quiz.results.score')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {results.students.map((row) => (
            <Table.Tr key={row.user.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {row.submission_id !== null ? (
                    <Anchor
                      component={Link}
                      size="sm"
                      to={pathTo('QuizSubmissionDetail', {
                        course_id: courseId,
                        quiz_id: results.quiz_course.quiz_id,
                        quiz_submission_id: row.submission_id,
                      })}
                    >
                      {memberName(row.user, i18n.language)}
                    </Anchor>
                  ) : (
                    memberName(row.user, i18n.language)
                  )}
                </Text>
                <Text size="xs" c="dimmed">
                  {row.user.email}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.status === null ? (
                  <Text size="sm" c="dimmed">
                    {t('quiz.results.notStarted')}
                  </Text>
                ) : (
                  <Badge variant="light" color={STATUS_COLORS[row.status]}>
                    {t(`quiz.status.${row.status}`)}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.submitted_at ? format.dateTime(row.submitted_at) : '–'}</Text>
              </Table.Td>
              <Table.Td ta="end">
                <Text size="sm" ff="monospace">
                  {row.score === null
                    ? '–'
                    : `${format.number(row.score)} / ${format.number(results.max_score)}`}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
