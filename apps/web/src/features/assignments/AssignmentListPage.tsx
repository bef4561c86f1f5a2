import {
  Anchor,
  Button,
  EmptyState,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChecklist, IconClipboardList, IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { AssignmentInCourse, CourseSpecificQuery } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { pathTo } from '../../routes/route-table.ts';
import { CardItem, CardList } from '../../ui/CardList.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Deadline } from '../../ui/Deadline.tsx';
import { ExtendedBadge } from '../extensions/ExtendedBadge.tsx';
import { StatusBadge } from '../submissions/StatusBadge.tsx';
import { AssignmentEditorHost, useAssignmentEditor } from './AssignmentEditorHost.tsx';
import { AvailabilityBadge } from './AvailabilityBadge.tsx';
import { ImportBundleButton } from './BundleActions.tsx';
import { courseAssignmentsQuery } from './assignments.queries.ts';
import { canEditCourse } from './permissions.ts';

type Ordering = CourseSpecificQuery['ordering'];
const ORDERINGS: readonly Ordering[] = ['due_at', '-due_at', 'opens_at', '-opens_at', 'title', '-title'];
const SEARCH_DEBOUNCE_MS = 300;

function parseOrdering(value: string | null): Ordering {
  return ORDERINGS.find((ordering) => ordering === value) ?? 'due_at';
}

/** The course's assignments: dates, whether they are open, my status and best score. */
export function AssignmentListPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const canEdit = canEditCourse(course);
  const editor = useAssignmentEditor();
  const [searchParams, setSearchParams] = useSearchParams();
  const ordering = parseOrdering(searchParams.get('ordering'));
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

  const assignments = useQuery(
    courseAssignmentsQuery({ course_id: course.id, ordering, search: debouncedSearch || undefined }),
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.assignment')}</Title>
        {canEdit ? (
          <Group gap="xs">
            <ImportBundleButton courseId={course.id} />
            <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={editor.openNew}>
              {t('assignments.new')}
            </Button>
          </Group>
        ) : null}
      </Group>

      <Group gap="sm" align="flex-end" role="search">
        <TextInput
          label={t('assignments.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setParam('search', event.currentTarget.value.trim());
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Select
          label={t('assignments.orderBy')}
          data={ORDERINGS.map((value) => ({ value, label: t(`assignments.ordering.${value}`) }))}
          value={ordering}
          onChange={(value) => setParam('ordering', value === 'due_at' ? null : value)}
          allowDeselect={false}
          w={220}
        />
      </Group>

      {assignments.isError ? (
        <ErrorState error={assignments.error} onRetry={() => void assignments.refetch()} />
      ) : !assignments.data ? (
        <Stack aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : assignments.data.results.length === 0 ? (
        <EmptyState
          icon={<IconClipboardList size={32} aria-hidden />}
          withIndicatorBackground
          title={debouncedSearch ? t('assignments.empty.noMatchTitle') : t('assignments.empty.title')}
          description={
            debouncedSearch
              ? t('assignments.empty.noMatch', { search: debouncedSearch })
              : canEdit
                ? t('assignments.empty.editor')
                : t('assignments.empty.student')
          }
          py="xl"
        />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('assignments.count', { count: assignments.data.count })}
          </Text>
          <AssignmentTable rows={assignments.data.results} canEdit={canEdit} onEdit={editor.openEdit} />
        </>
      )}
      <AssignmentEditorHost courseId={course.id} timeZone={course.time_zone} />
    </Stack>
  );
}

function AssignmentTable({
  rows,
  canEdit,
  onEdit,
}: {
  rows: AssignmentInCourse[];
  canEdit: boolean;
  onEdit: (id: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const isPhone = useIsPhone();
  if (isPhone) return <AssignmentCards rows={rows} canEdit={canEdit} onEdit={onEdit} />;
  return (
    <Table.ScrollContainer minWidth={canEdit ? 1000 : 820}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('routes.assignment')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('assignments.columns.title')}</Table.Th>
            <Table.Th>{t('assignments.columns.opens')}</Table.Th>
            <Table.Th>{t('assignments.columns.due')}</Table.Th>
            <Table.Th>{t('assignments.columns.myStatus')}</Table.Th>
            <Table.Th ta="end">{t('assignments.columns.score')}</Table.Th>
            {canEdit ? <Table.Th ta="end">{t('assignments.columns.submitted')}</Table.Th> : null}
            {canEdit ? <Table.Th>{t('assignments.columns.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Anchor
                    component={Link}
                    to={pathTo('AssignmentDetail', { course_id: row.course_id, assignment_id: row.id })}
                    fw={600}
                  >
                    {row.title}
                  </Anchor>
                  <AvailabilityBadge dates={row} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  <Deadline at={row.opens_at} />
                </Text>
              </Table.Td>
              <Table.Td>
                <DueDate row={row} />
              </Table.Td>
              <Table.Td>
                <MyStatus row={row} />
              </Table.Td>
              <Table.Td ta="end">
                <BestScore row={row} />
              </Table.Td>
              {canEdit ? (
                <Table.Td ta="end">
                  <Text size="sm">{format.number(row.submitted_students ?? 0)}</Text>
                </Table.Td>
              ) : null}
              {canEdit ? (
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <AssignmentActions row={row} onEdit={onEdit} variant="subtle" />
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/* The cells the table and the phone cards share. */

/** The due date (the caller's own, marked when extended) and the late cut-off. */
function DueDate({ row }: { row: AssignmentInCourse }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <>
      <Group gap={6}>
        <Text size="sm">
          <Deadline at={row.due_at} />
        </Text>
        <ExtendedBadge extended={row.extended} />
      </Group>
      {row.late_until ? (
        <Text size="xs" c="dimmed">
          {t('assignments.lateUntilShort', { date: format.deadline(row.late_until) })}
        </Text>
      ) : null}
    </>
  );
}

/** The latest submission's badge, coloured by its score; "Not submitted" without one. */
function MyStatus({ row }: { row: AssignmentInCourse }) {
  const { t } = useTranslation();
  return row.my_latest_status ? (
    <StatusBadge status={row.my_latest_status} score={row.my_latest_score} max={row.my_latest_max_score} />
  ) : (
    <Text size="sm" c="dimmed">
      {t('assignments.notSubmitted')}
    </Text>
  );
}

/** My best graded score out of the assignment's points. */
function BestScore({ row }: { row: AssignmentInCourse }) {
  const format = useFormatters();
  return (
    <Text size="sm" ff="monospace">
      {row.my_best_score === null ? '–' : format.number(row.my_best_score)} /{' '}
      {format.number(row.total_points)}
    </Text>
  );
}

/** The same list on a phone: a card per assignment with its due date, my status and my score. */
function AssignmentCards({
  rows,
  canEdit,
  onEdit,
}: {
  rows: AssignmentInCourse[];
  canEdit: boolean;
  onEdit: (id: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <CardList label={t('routes.assignment')}>
      {rows.map((row) => (
        <CardItem
          key={row.id}
          heading={
            <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
              <Anchor
                component={Link}
                to={pathTo('AssignmentDetail', { course_id: row.course_id, assignment_id: row.id })}
                fw={600}
                style={{ overflowWrap: 'anywhere' }}
              >
                {row.title}
              </Anchor>
              <AvailabilityBadge dates={row} />
            </Group>
          }
          facts={[
            {
              label: t('assignments.columns.due'),
              value: <DueDate row={row} />,
            },
            {
              label: t('assignments.columns.myStatus'),
              value: <MyStatus row={row} />,
            },
            {
              label: t('assignments.columns.score'),
              value: <BestScore row={row} />,
            },
            ...(canEdit
              ? [
                  {
                    label: t('assignments.columns.submitted'),
                    value: <Text size="sm">{format.number(row.submitted_students ?? 0)}</Text>,
                  },
                ]
              : [
                  {
                    label: t('assignments.columns.opens'),
                    value: (
                      <Text size="sm">
                        <Deadline at={row.opens_at} />
                      </Text>
                    ),
                  },
                ]),
          ]}
          actions={canEdit ? <AssignmentActions row={row} onEdit={onEdit} variant="light" /> : undefined}
        />
      ))}
    </CardList>
  );
}

/** An editor's actions on an assignment, in the table and on its card: edit it, open its test cases. */
function AssignmentActions({
  row,
  onEdit,
  variant,
}: {
  row: AssignmentInCourse;
  onEdit: (id: number) => void;
  variant: 'subtle' | 'light';
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        size="compact-sm"
        variant={variant}
        leftSection={<IconPencil size={14} aria-hidden />}
        onClick={() => onEdit(row.id)}
        aria-label={t('assignments.editNamed', { title: row.title })}
      >
        {t('assignments.edit')}
      </Button>
      <Button
        size="compact-sm"
        variant={variant}
        component={Link}
        to={pathTo('TestCase', { course_id: row.course_id, assignment_id: row.id })}
        leftSection={<IconChecklist size={14} aria-hidden />}
        aria-label={t('assignments.testCasesNamed', { title: row.title, count: row.test_case_count })}
      >
        {t('assignments.testCasesCount', { count: row.test_case_count })}
      </Button>
    </>
  );
}
