import { Button, Center, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconChartBar, IconEye, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { QuizInCourse } from '@kadai/contracts';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { parseId } from '../assignments/assignments.queries.ts';
import { QuizEditorHost, useQuizEditor } from './QuizEditorHost.tsx';
import { QuizDescription, QuizFacts, QuizStateBadge } from './QuizIntro.tsx';
import { QuizPreview } from './QuizPreview.tsx';
import { ResultsPanel } from './ResultsPanel.tsx';
import { StudentQuizPanel } from './StudentQuizPanel.tsx';
import { quizInCourseQuery, quizQuery } from './quizzes.queries.ts';

/**
 * A quiz in a course. Students: the facts, then Start (timed), the questions, or their submission.
 * Editors: the facts with a preview of the questions, and the results (`?tab=results`).
 */
export function QuizDetailPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const navigate = useNavigate();
  const editor = useQuizEditor();
  const params = useParams();
  const quizId = parseId(params.quiz_id);
  const quizCourseId = parseId(params.quiz_course_id);
  const detail = useQuery({ ...quizInCourseQuery(quizId ?? 0, course.id), enabled: quizId !== null });
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const data = useDeferredValue(detail.data);

  if (quizId === null || quizCourseId === null || isApiError(detail.error, 404)) return <NotFoundPage />;
  if (detail.isError) {
    return (
      <>
        <Title order={1}>{t('routes.quizDetail')}</Title>
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      </>
    );
  }
  if (!data) return <PageLoader />;
  // The URL names a quiz course: one of another course (or another quiz) is not this page's.
  if (data.quiz_course.id !== quizCourseId) return <NotFoundPage />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6}>
          <Title order={1}>{data.title}</Title>
          <Group gap="xs">
            <QuizStateBadge state={data.quiz_course.state} />
            <Text size="sm" c="dimmed">
              {t('quiz.facts.questionsAndPoints', { count: data.question_count, points: data.total_points })}
            </Text>
          </Group>
        </Stack>
        {data.can_edit ? (
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => editor.openEdit(data.quiz_id)}
          >
            {t('quiz.list.edit')}
          </Button>
        ) : null}
      </Group>
      {data.can_edit ? (
        <EditorTabs detail={data} courseId={course.id} />
      ) : (
        <>
          <QuizFacts detail={data} />
          <QuizDescription description={data.description} />
          <StudentQuizPanel detail={data} courseId={course.id} />
        </>
      )}
      <QuizEditorHost
        courseId={course.id}
        timeZone={course.time_zone}
        onDeleted={() => navigate(pathTo('QuizList', { course_id: course.id }), { replace: true })}
      />
    </Stack>
  );
}

type EditorTab = 'overview' | 'results';

function EditorTabs({ detail, courseId }: { detail: QuizInCourse; courseId: number }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: EditorTab = searchParams.get('tab') === 'results' ? 'results' : 'overview';
  const setTab = (value: string | null) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === 'results') next.set('tab', 'results');
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );
  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false}>
      <Tabs.List aria-label={t('quiz.detail.views')}>
        <Tabs.Tab value="overview" leftSection={<IconEye size={16} aria-hidden />}>
          {t('quiz.detail.overview')}
        </Tabs.Tab>
        <Tabs.Tab value="results" leftSection={<IconChartBar size={16} aria-hidden />}>
          {t('quiz.detail.results')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="overview" pt="md">
        <Stack gap="lg">
          <QuizFacts detail={detail} />
          <QuizDescription description={detail.description} />
          <EditorPreview quizId={detail.quiz_id} />
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="results" pt="md">
        <ResultsPanel quizCourseId={detail.quiz_course.id} courseId={courseId} />
      </Tabs.Panel>
    </Tabs>
  );
}

function EditorPreview({ quizId }: { quizId: number }) {
  const { t } = useTranslation();
  const quiz = useQuery(quizQuery(quizId));
  if (quiz.isError) return <ErrorState error={quiz.error} onRetry={() => void quiz.refetch()} />;
  if (!quiz.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (quiz.data.view !== 'editor') return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="quiz-preview-heading">
      <Title order={2} size="h4" id="quiz-preview-heading">
        {t('quiz.preview.title')}
      </Title>
      <QuizPreview questions={quiz.data.questions} headingOrder={3} />
    </Stack>
  );
}
