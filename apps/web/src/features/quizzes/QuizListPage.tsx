import { Button, EmptyState, Group, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconListCheck, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { QuizInCourse, QuizState } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { canEditCourse } from '../assignments/permissions.ts';
import { QuizEditorHost, useQuizEditor } from './QuizEditorHost.tsx';
import { QuizTable } from './QuizTable.tsx';
import { courseQuizzesQuery } from './quizzes.queries.ts';

const SEARCH_DEBOUNCE_MS = 300;
const GROUPS: readonly QuizState[] = ['open', 'upcoming', 'closed'];

/**
 * The course's quizzes in three groups (open, upcoming, closed), with their windows in the reader's
 * time zone and, for students, whether they submitted and their score once visible. Search and "hide
 * submitted" live in the URL. Editors also see how many submitted and manage the quizzes.
 */
export function QuizListPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const canEdit = canEditCourse(course);
  const editor = useQuizEditor();
  const [searchParams, setSearchParams] = useSearchParams();
  const hideSubmitted = searchParams.get('hide_submitted') === 'true';
  const [search, setSearch] = useState(searchParams.get('search') ?? '');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);

  const setParam = (key: string, value: string | null) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const quizzes = useQuery(
    courseQuizzesQuery({
      course_id: course.id,
      hide_submitted: hideSubmitted,
      search: debouncedSearch || undefined,
    }),
  );

  const byState = (state: QuizState): QuizInCourse[] =>
    quizzes.data?.results.filter((quiz) => quiz.quiz_course.state === state) ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.quizList')}</Title>
        {canEdit ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={editor.openNew}>
            {t('quiz.list.new')}
          </Button>
        ) : null}
      </Group>

      <Group gap="lg" align="flex-end" role="search">
        <TextInput
          label={t('quiz.list.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setParam('search', event.currentTarget.value.trim());
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Switch
          label={t('quiz.list.hideSubmitted')}
          checked={hideSubmitted}
          onChange={(event) => setParam('hide_submitted', event.currentTarget.checked ? 'true' : null)}
          mb={8}
        />
      </Group>

      {quizzes.isError ? (
        <ErrorState error={quizzes.error} onRetry={() => void quizzes.refetch()} />
      ) : !quizzes.data ? (
        <Stack aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : quizzes.data.results.length === 0 ? (
        <EmptyState
          icon={<IconListCheck size={32} aria-hidden />}
          withIndicatorBackground
          title={debouncedSearch || hideSubmitted ? t('quiz.list.noMatchTitle') : t('quiz.list.emptyTitle')}
          description={
            debouncedSearch
              ? t('quiz.list.noMatch', { search: debouncedSearch })
              : hideSubmitted
                ? t('quiz.list.allSubmitted')
                : canEdit
                  ? t('quiz.list.emptyEditor')
                  : t('quiz.list.emptyStudent')
          }
          py="xl"
        />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('quiz.list.count', { count: quizzes.data.count })}
          </Text>
          {GROUPS.map((state) => (
            <QuizTable
              key={state}
              state={state}
              rows={byState(state)}
              canEdit={canEdit}
              onEdit={editor.openEdit}
            />
          ))}
        </>
      )}
      <QuizEditorHost courseId={course.id} timeZone={course.time_zone} />
    </Stack>
  );
}
