import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconClockPlus, IconDownload, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Gradebook, GradebookCell, GradebookRow } from '@kadai/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { saveBlob } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { SortHeader } from '../../ui/SortHeader.tsx';
import { notifyError } from '../../ui/notify.ts';
import { useSession } from '../auth/session.ts';
import { canManageCourse } from '../courses/course-access.ts';
import { memberName } from '../courses/member-name.ts';
import { GrantExtensionDialog } from '../extensions/GrantExtensionDialog.tsx';
import type { GrantPrefill } from '../extensions/extension-form.ts';
import { downloadGradebookCsv, gradebookQuery } from './gradebook.api.ts';
import {
  filterGradebook,
  sortGradebook,
  type GradebookFilter,
  type GradebookSort,
  type GradebookSortKey,
} from './gradebook-table.ts';
import classes from './Gradebook.module.css';

/**
 * The course gradebook (docs/assessment.md, "Gradebook"): every student against every assignment and
 * quiz, with late, missing and extended work flagged, totals, sorting, a search and a filter, the CSV,
 * and an extension granted from a student's row. Editors of the course and staff; everyone else gets
 * NotFound, as on other editor pages.
 */
export function GradebookPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  if (!canManageCourse(course, isStaff)) return <NotFoundPage />;
  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.gradebook')}</Title>
      <GradebookView courseId={course.id} />
    </Stack>
  );
}

function GradebookView({ courseId }: { courseId: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const book = useQuery(gradebookQuery(courseId));
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<GradebookFilter>('all');
  const [sort, setSort] = useState<GradebookSort>({ key: 'name', direction: 'ascending' });
  const [grant, setGrant] = useState<GrantPrefill | null>(null);
  const data = book.data;
  const rows = useMemo(
    () =>
      data ? sortGradebook(data, filterGradebook(data.rows, search, filter, language), sort, language) : [],
    [data, search, filter, sort, language],
  );
  const download = useMutation({
    mutationFn: () => downloadGradebookCsv(courseId),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `gradebook-course-${courseId}.csv`))
        notifyError(t('common.downloadDenied'));
    },
    onError: () => notifyError(t('common.downloadFailed')),
  });

  if (book.isError) return <ErrorState error={book.error} onRetry={() => void book.refetch()} />;
  if (!data) return <Skeleton height={240} aria-busy="true" />;

  const onSort = (key: GradebookSortKey) =>
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { key, direction: key === 'name' ? 'ascending' : 'descending' },
    );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('gradebook.search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <SegmentedControl
            aria-label={t('gradebook.filter.label')}
            value={filter}
            onChange={(value) => setFilter(value as GradebookFilter)}
            data={[
              { value: 'all', label: t('gradebook.filter.all') },
              { value: 'missing', label: t('gradebook.filter.missing') },
              { value: 'late', label: t('gradebook.filter.late') },
            ]}
          />
        </Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate()}
          disabled={data.rows.length === 0}
        >
          {t('gradebook.csv')}
        </Button>
      </Group>
      {data.rows.length === 0 ? (
        <Text c="dimmed">{t('gradebook.empty')}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('gradebook.noMatch')}</Text>
      ) : (
        <GradebookGrid
          data={data}
          rows={rows}
          sort={sort}
          onSort={onSort}
          onGrant={setGrant}
          language={language}
        />
      )}
      <GrantExtensionDialog courseId={courseId} prefill={grant} onClose={() => setGrant(null)} />
    </Stack>
  );
}

/** A score with its flags in words, not colour alone; an extension's tooltip says what it means. */
function Cell({ cell }: { cell: GradebookCell }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm" c={cell.score === null ? 'dimmed' : undefined}>
        {cell.score === null ? '–' : cell.score}
      </Text>
      {cell.missing ? (
        <Badge size="xs" color="red" variant="light">
          {t('gradebook.missing')}
        </Badge>
      ) : null}
      {cell.late ? (
        <Badge size="xs" color="orange" variant="light">
          {t('gradebook.late')}
        </Badge>
      ) : null}
      {cell.extended ? (
        <Tooltip label={t('gradebook.extendedHint')}>
          <Badge
            size="xs"
            color="grape"
            variant="light"
            leftSection={<IconClockPlus size={10} aria-hidden />}
          >
            {t('gradebook.extended')}
          </Badge>
        </Tooltip>
      ) : null}
    </Stack>
  );
}

function GradebookGrid({
  data,
  rows,
  sort,
  onSort,
  onGrant,
  language,
}: {
  data: Gradebook;
  rows: Gradebook['rows'];
  sort: GradebookSort;
  onSort: (key: GradebookSortKey) => void;
  onGrant: (prefill: GrantPrefill) => void;
  language: string;
}) {
  const { t } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' });
  return (
    // A scrolling region takes the focus, so a keyboard can scroll it (axe: scrollable-region-focusable).
    <div className={classes.scroller} tabIndex={0} role="region" aria-label={t('routes.gradebook')}>
      <Table className={classes.table} striped highlightOnHover>
        <Table.Caption>
          {t('gradebook.caption', { count: rows.length, total: data.rows.length })}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <SortHeader
              sortKey="name"
              sort={sort}
              onSort={onSort}
              title={t('gradebook.sortBy', { column: t('gradebook.student') })}
              className={classes.name}
            >
              <Text size="xs" fw={700}>
                {t('gradebook.student')}
              </Text>
            </SortHeader>
            <SortHeader
              sortKey="total"
              sort={sort}
              onSort={onSort}
              title={t('gradebook.sortBy', { column: t('gradebook.total') })}
            >
              <Text size="xs" fw={700}>
                {t('gradebook.total')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('gradebook.maxPoints', { max: data.max_total })}
              </Text>
            </SortHeader>
            {data.columns.map((column) => (
              <SortHeader
                key={column.key}
                sortKey={column.key}
                sort={sort}
                onSort={onSort}
                title={t('gradebook.sortBy', { column: column.title })}
              >
                <Text size="xs" fw={700} lineClamp={2} title={column.title} miw={96}>
                  {column.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(column.kind === 'quiz' ? 'gradebook.quizDue' : 'gradebook.assignmentDue', {
                    date: dateFormat.format(new Date(column.due_at)),
                    max: column.max_score,
                  })}
                </Text>
              </SortHeader>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.user.id}>
              <Table.Th scope="row" fw={400} className={classes.name}>
                <Group gap={4} wrap="nowrap" justify="space-between">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm">{memberName(row.user, language)}</Text>
                    <Text size="xs" c="dimmed" truncate>
                      {row.user.email}
                    </Text>
                  </div>
                  <GrantMenu data={data} user={row.user} onGrant={onGrant} language={language} />
                </Group>
              </Table.Th>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {row.total}
                </Text>
              </Table.Td>
              {row.cells.map((cell, index) => (
                <Table.Td key={data.columns[index]?.key ?? index}>
                  <Cell cell={cell} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/**
 * A student's row offers an extension for any column: the dialog opens with the student and the item.
 * One button a row, not one a cell, so the keyboard does not stop at every score.
 */
function GrantMenu({
  data,
  user,
  onGrant,
  language,
}: {
  data: Gradebook;
  user: GradebookRow['user'];
  onGrant: (prefill: GrantPrefill) => void;
  language: string;
}) {
  const { t } = useTranslation();
  const name = memberName(user, language);
  if (data.columns.length === 0) return null;
  return (
    // Fixed, so the menu is not clipped by the grid's own scrolling box.
    <Menu position="bottom-start" floatingStrategy="fixed">
      <Menu.Target>
        <ActionIcon variant="subtle" size="sm" aria-label={t('gradebook.grant', { name })}>
          <IconClockPlus size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        <Menu.Label>{t('gradebook.grantFor', { name })}</Menu.Label>
        {data.columns.map((column) => (
          <Menu.Item
            key={column.key}
            onClick={() => onGrant({ kind: column.kind, itemId: column.item_id, userIds: [user.id] })}
          >
            {t(`extensions.kind.${column.kind}`)} · {column.title}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
