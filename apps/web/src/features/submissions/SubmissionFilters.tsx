import { Checkbox, Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { courseAssignmentsQuery } from '../assignments/assignments.queries.ts';

export interface SubmissionFilterValues {
  assignmentId: number | null;
  status: SubmissionStatus | undefined;
  finalOnly: boolean;
  lateOnly: boolean;
}

/** The URL parameters the filters write. */
export type FilterParam = 'assignment' | 'status' | 'final' | 'late';

export function SubmissionFilters({
  courseId,
  values,
  search,
  canEdit,
  onSearch,
  onChange,
}: {
  courseId: number;
  values: SubmissionFilterValues;
  search: string;
  canEdit: boolean;
  onSearch: (value: string) => void;
  onChange: (key: FilterParam, value: string | null) => void;
}) {
  const { t } = useTranslation();
  const assignments = useQuery(courseAssignmentsQuery({ course_id: courseId, ordering: 'due_at' }));
  return (
    <Group gap="sm" align="flex-end" role="search" wrap="wrap">
      <TextInput
        label={t('submissions.filters.search')}
        description={canEdit ? t('submissions.filters.searchHelp') : undefined}
        leftSection={<IconSearch size={16} aria-hidden />}
        type="search"
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        style={{ flex: 1, minWidth: 200 }}
      />
      <Select
        label={t('submissions.filters.assignment')}
        placeholder={t('submissions.filters.allAssignments')}
        data={(assignments.data?.results ?? []).map((assignment) => ({
          value: String(assignment.id),
          label: assignment.title,
        }))}
        value={values.assignmentId === null ? null : String(values.assignmentId)}
        onChange={(value) => onChange('assignment', value)}
        clearable
        searchable
        w={240}
      />
      <Select
        label={t('submissions.filters.status')}
        placeholder={t('submissions.filters.allStatuses')}
        data={SUBMISSION_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        value={values.status ?? null}
        onChange={(value) => onChange('status', value)}
        clearable
        w={180}
      />
      <Group gap="md" pb={8}>
        <Checkbox
          label={t('submissions.filters.finalOnly')}
          checked={values.finalOnly}
          onChange={(event) => onChange('final', event.currentTarget.checked ? '1' : null)}
        />
        <Checkbox
          label={t('submissions.filters.lateOnly')}
          checked={values.lateOnly}
          onChange={(event) => onChange('late', event.currentTarget.checked ? '1' : null)}
        />
      </Group>
    </Group>
  );
}
