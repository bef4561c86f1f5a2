import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '@kadai/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { parseId } from '../assignments/assignments.queries.ts';
import { canEditCourse } from '../assignments/permissions.ts';
import { EditorSubmissionActions } from './EditorSubmissionActions.tsx';
import { SubmissionFilters, type SubmissionFilterValues } from './SubmissionFilters.tsx';
import { SubmissionTable } from './SubmissionTable.tsx';
import { submissionListQuery } from './submissions.queries.ts';
import { Pager } from '../../ui/Pager.tsx';

export const SUBMISSIONS_PER_PAGE = 20;
const SEARCH_DEBOUNCE_MS = 300;

function parseStatus(value: string | null): SubmissionStatus | undefined {
  return SUBMISSION_STATUSES.find((status) => status === value);
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Submissions of the course: a student's own, everyone's for editors (with the CSV export, re-grading
 * and canceling). Filters and the page live in the URL.
 */
export function SubmissionListPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const canEdit = canEditCourse(course);
  const [searchParams, setSearchParams] = useSearchParams();
  const filters: SubmissionFilterValues = {
    assignmentId: parseId(searchParams.get('assignment') ?? undefined),
    status: parseStatus(searchParams.get('status')),
    finalOnly: searchParams.get('final') === '1',
    lateOnly: searchParams.get('late') === '1',
  };
  const page = parsePage(searchParams.get('page'));
  const [search, setSearch] = useState(searchParams.get('search') ?? '');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);

  const update = (changes: Record<string, string | null>) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  const submissions = useQuery(
    submissionListQuery({
      course_id: course.id,
      limit: SUBMISSIONS_PER_PAGE,
      offset: (page - 1) * SUBMISSIONS_PER_PAGE,
      ordering: '-created_at',
      assignment_id: filters.assignmentId ?? undefined,
      status: filters.status,
      is_final: filters.finalOnly || undefined,
      is_late: filters.lateOnly || undefined,
      search: debouncedSearch || undefined,
    }),
  );
  const totalPages = submissions.data
    ? Math.max(1, Math.ceil(submissions.data.count / SUBMISSIONS_PER_PAGE))
    : 1;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.submission')}</Title>
      </Group>
      <SubmissionFilters
        courseId={course.id}
        values={filters}
        search={search}
        canEdit={canEdit}
        onSearch={(value) => {
          setSearch(value);
          update({ search: value.trim(), page: null });
        }}
        onChange={(key, value) => update({ [key]: value, page: null })}
      />
      {canEdit ? <EditorSubmissionActions courseId={course.id} assignmentId={filters.assignmentId} /> : null}

      {submissions.isError ? (
        <ErrorState error={submissions.error} onRetry={() => void submissions.refetch()} />
      ) : !submissions.data ? (
        <Stack aria-busy="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={40} />
          ))}
        </Stack>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('submissions.count', { count: submissions.data.count })}
          </Text>
          <SubmissionTable rows={submissions.data.results} canEdit={canEdit} />
          <Pager
            total={totalPages}
            value={page}
            onChange={(value) => update({ page: value === 1 ? null : String(value) })}
          />
        </>
      )}
    </Stack>
  );
}
