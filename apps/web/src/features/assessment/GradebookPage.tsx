import {
  ActionIcon,
  Button,
  Group,
  Menu,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconClockPlus, IconDownload, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Gradebook, GradebookRow } from '@kadai/contracts';
import { Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { saveBlob } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { lazyComponent } from '../../ui/lazyComponent.ts';
import { notifyError } from '../../ui/notify.ts';
import { useSession } from '../auth/session.ts';
import { canManageCourse } from '../courses/course-access.ts';
import { memberName } from '../courses/member-name.ts';
import type { GrantPrefill } from '../extensions/extension-form.ts';
import { downloadGradebookCsv, gradebookQuery } from './gradebook.api.ts';
import { GradebookGrid } from './GradebookGrid.tsx';
import {
  filterGradebook,
  sortGradebook,
  type GradebookFilter,
  type GradebookSort,
  type GradebookSortKey,
} from './gradebook-table.ts';

// Loaded when an extension is first asked for: its form (react-hook-form, date and number inputs, the
// course's assignments and quizzes) is no part of the table's first paint.
const GrantExtensionDialog = lazyComponent(() =>
  import('../extensions/GrantExtensionDialog.tsx').then((m) => ({ default: m.GrantExtensionDialog })),
);

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
  // Once loaded, the dialog stays mounted, so it closes with its transition.
  const [hasGranted, setHasGranted] = useState(false);
  const openGrant = useCallback((prefill: GrantPrefill) => {
    setHasGranted(true);
    setGrant(prefill);
  }, []);
  // The book is drawn in a background render cut into slices, not in the task that brought it (a
  // course of 300 students: its header and first rows were one long task; docs/first-load.md).
  const data = useDeferredValue(book.data);
  const rows = useMemo(
    () =>
      data ? sortGradebook(data, filterGradebook(data.rows, search, filter, language), sort, language) : [],
    [data, search, filter, sort, language],
  );
  // One function for every row, so a row is redrawn only when its own data changes.
  const grantMenu = useCallback(
    (user: GradebookRow['user']) =>
      data ? <GrantMenu data={data} user={user} onGrant={openGrant} language={language} /> : null,
    [data, language, openGrant],
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
          viewKey={`${sort.key} ${sort.direction} ${filter} ${search}`}
          onSort={onSort}
          grantMenu={grantMenu}
          language={language}
          fetchedAt={book.dataUpdatedAt}
        />
      )}
      {hasGranted ? (
        <Suspense fallback={null}>
          <GrantExtensionDialog courseId={courseId} prefill={grant} onClose={() => setGrant(null)} />
        </Suspense>
      ) : null}
    </Stack>
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
