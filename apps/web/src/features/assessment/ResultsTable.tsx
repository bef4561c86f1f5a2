import { Anchor, Button, Group, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { AssessmentTable } from '@kadai/contracts';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { saveBlob } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { SortHeader } from '../../ui/SortHeader.tsx';
import { notifyError } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import { filterRows, sortRows, tableCsvRows, type ColumnKey, type Sort } from './assessment-table.ts';
import { assessmentTableQuery } from './assessment.queries.ts';
import { formatPercent } from './chart-format.ts';
import { csvBlob } from './csv.ts';

function Points({ value }: { value: number | null }) {
  const { t } = useTranslation();
  return value === null ? (
    <Text size="sm" c="dimmed" aria-label={t('assessment.table.notCounted')}>
      –
    </Text>
  ) : (
    <Text size="sm">{value}</Text>
  );
}

/** Editors and staff: every student × total, skills, assignments and quizzes; sortable, searchable, as CSV. */
export function ResultsTable({ courseId }: { courseId: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const table = useQuery(assessmentTableQuery(courseId));
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'name', direction: 'ascending' });
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const data = useDeferredValue(table.data);
  const rows = useMemo(
    () => (data ? sortRows(filterRows(data.students, search), sort, language) : []),
    [data, search, sort, language],
  );

  if (table.isError) return <ErrorState error={table.error} onRetry={() => void table.refetch()} />;
  if (!data) return <Skeleton height={200} aria-busy="true" />;

  const onSort = (key: ColumnKey) =>
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : // Names read A to Z first, results best first.
          { key, direction: key === 'name' ? 'ascending' : 'descending' },
    );
  const download = () => {
    const csv = csvBlob(
      tableCsvRows(
        data,
        rows,
        {
          student: t('assessment.table.student'),
          email: t('assessment.table.email'),
          totalPercent: t('assessment.table.csvTotalPercent'),
          earned: t('assessment.table.csvEarned'),
          possible: t('assessment.table.csvPossible'),
          skill: (name) => t('assessment.table.csvSkill', { name }),
        },
        language,
      ),
    );
    if (!saveBlob(csv, `course-${courseId}-assessment.csv`)) notifyError(t('common.downloadDenied'));
  };
  const header = (key: ColumnKey, label: string, sub?: string) => (
    <SortHeader
      key={key}
      sortKey={key}
      sort={sort}
      onSort={onSort}
      title={t('assessment.table.sortBy', { column: label })}
      style={{ minWidth: 96 }}
    >
      <Text size="xs" fw={700} lineClamp={2} title={label}>
        {label}
      </Text>
      {sub ? (
        <Text size="xs" c="dimmed">
          {sub}
        </Text>
      ) : null}
    </SortHeader>
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('assessment.table.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={download}
          disabled={data.students.length === 0}
        >
          {t('assessment.table.csv')}
        </Button>
      </Group>
      {data.students.length === 0 ? (
        <Text c="dimmed">{t('assessment.table.empty')}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('assessment.table.noMatch')}</Text>
      ) : (
        <ResultsGrid data={data} rows={rows} header={header} courseId={courseId} language={language} />
      )}
    </Stack>
  );
}

function ResultsGrid({
  data,
  rows,
  header,
  courseId,
  language,
}: {
  data: AssessmentTable;
  rows: AssessmentTable['students'];
  header: (key: ColumnKey, label: string, sub?: string) => ReactNode;
  courseId: number;
  language: string;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped withTableBorder stickyHeader>
        <Table.Caption>
          {t('assessment.table.caption', { count: rows.length, total: data.students.length })}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {header('name', t('assessment.table.student'))}
            {header('total', t('assessment.table.total'))}
            {data.skills.map((skill, index) => header(`skill:${index}`, skill.name, skill.skill_type))}
            {data.assignments.map((column, index) =>
              header(
                `assignment:${index}`,
                column.title,
                t('assessment.table.maxPoints', { max: column.max_score }),
              ),
            )}
            {data.quizzes.map((column, index) =>
              header(
                `quiz:${index}`,
                column.title,
                t('assessment.table.maxPoints', { max: column.max_score }),
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.user.id}>
              <Table.Th scope="row" fw={400}>
                <Anchor
                  component={Link}
                  to={pathTo('AssessmentDetail', { course_id: courseId, user_id: row.user.id })}
                  size="sm"
                >
                  {memberName(row.user, language)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {row.user.email}
                </Text>
              </Table.Th>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {formatPercent(row.total.ratio, language)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('assessment.table.pointsOf', { earned: row.total.earned, possible: row.total.possible })}
                </Text>
              </Table.Td>
              {row.skills.map((score, index) => (
                <Table.Td key={`s${index}`}>{formatPercent(score.ratio, language)}</Table.Td>
              ))}
              {row.assignments.map((value, index) => (
                <Table.Td key={`a${index}`}>
                  <Points value={value} />
                </Table.Td>
              ))}
              {row.quizzes.map((value, index) => (
                <Table.Td key={`q${index}`}>
                  <Points value={value} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
