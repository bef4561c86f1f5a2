import { Group, Table, Text } from '@mantine/core';
import { IconClockPlus } from '@tabler/icons-react';
import type { Gradebook, GradebookCell, GradebookRow } from '@kadai/contracts';
import { memo, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SortHeader } from '../../ui/SortHeader.tsx';
import { memberName } from '../courses/member-name.ts';
import { maxDueSoFar, type GradebookSort, type GradebookSortKey } from './gradebook-table.ts';
import { useRowWindow } from './use-row-window.ts';
import classes from './Gradebook.module.css';

export interface GradebookGridProps {
  data: Gradebook;
  /** The rows to show, filtered and sorted. */
  rows: Gradebook['rows'];
  sort: GradebookSort;
  /** Changes with the sort, the filter and the search: the table starts again at its top. */
  viewKey: string;
  onSort: (key: GradebookSortKey) => void;
  /** A row's extension button (GradebookPage's menu). */
  grantMenu: (user: GradebookRow['user']) => ReactNode;
  language: string;
  /** When the book was fetched: the columns due by then count in "due so far". */
  fetchedAt: number;
}

/**
 * The gradebook's table: a sticky header row and name column inside a box that scrolls both ways, and
 * its rows drawn as they come into view (use-row-window.ts), each cell plain markup rather than layout
 * components, so a course of 300 students × 40 items paints at once (issue 36).
 */
export function GradebookGrid({
  data,
  rows,
  sort,
  viewKey,
  onSort,
  grantMenu,
  language,
  fetchedAt,
}: GradebookGridProps) {
  const { t } = useTranslation();
  const dateFormat = useMemo(
    () => new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }),
    [language],
  );
  const dueSoFar = useMemo(() => maxDueSoFar(data.columns, fetchedAt), [data.columns, fetchedAt]);
  const { shown, scrollerRef, sentinelRef } = useRowWindow(rows.length, viewKey);
  return (
    // A scrolling region takes the focus, so a keyboard can scroll it (axe: scrollable-region-focusable).
    <div
      ref={scrollerRef}
      className={classes.scroller}
      tabIndex={0}
      role="region"
      aria-label={t('routes.gradebook')}
    >
      {/* Rows not drawn yet still count: the header is row 1 of rows.length + 1. */}
      <Table className={classes.table} striped highlightOnHover aria-rowcount={rows.length + 1}>
        <Table.Caption>
          {t('gradebook.caption', { count: rows.length, total: data.rows.length })}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
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
              className={classes.totalHead}
            >
              <Text size="xs" fw={700}>
                {t('gradebook.total')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('gradebook.maxPoints', { max: data.max_total })}
              </Text>
              {dueSoFar < data.max_total ? (
                <Text size="xs" c="dimmed">
                  {t('gradebook.dueSoFar', { max: dueSoFar })}
                </Text>
              ) : null}
            </SortHeader>
            {data.columns.map((column) => (
              <SortHeader
                key={column.key}
                sortKey={column.key}
                sort={sort}
                onSort={onSort}
                title={t('gradebook.sortBy', { column: column.title })}
                hint={column.title}
              >
                <Text size="xs" fw={700} lineClamp={2} miw={96}>
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
          {rows.slice(0, shown).map((row, index) => (
            <Row key={row.user.id} row={row} rowIndex={index + 2} language={language} grantMenu={grantMenu} />
          ))}
        </Table.Tbody>
      </Table>
      <div ref={sentinelRef} className={classes.sentinel} aria-hidden />
    </div>
  );
}

/** One student's row; redrawn only when that row, the language or the menu changes. */
const Row = memo(function Row({
  row,
  rowIndex,
  language,
  grantMenu,
}: {
  row: GradebookRow;
  rowIndex: number;
  language: string;
  grantMenu: GradebookGridProps['grantMenu'];
}) {
  const { t } = useTranslation();
  const flags: Flags = {
    missing: t('gradebook.missing'),
    late: t('gradebook.late'),
    extended: t('gradebook.extended'),
    extendedHint: t('gradebook.extendedHint'),
  };
  return (
    <Table.Tr aria-rowindex={rowIndex}>
      <Table.Th scope="row" fw={400} className={classes.name}>
        <Group gap={4} wrap="nowrap" justify="space-between">
          <div className={classes.who}>
            <div className={classes.person}>{memberName(row.user, language)}</div>
            <div className={classes.email}>{row.user.email}</div>
          </div>
          {grantMenu(row.user)}
        </Group>
      </Table.Th>
      {/* Plain cells, padded as Mantine's (Gradebook.module.css): a Table.Td costs a component each. */}
      <td className={`${classes.td} ${classes.total}`}>{row.total}</td>
      {row.cells.map((cell, index) => (
        <td key={index} className={classes.td}>
          <Cell cell={cell} flags={flags} />
        </td>
      ))}
    </Table.Tr>
  );
});

interface Flags {
  missing: string;
  late: string;
  extended: string;
  extendedHint: string;
}

/** A score with its flags in words, not colour alone; an extension's title says what it means. */
function Cell({ cell, flags }: { cell: GradebookCell; flags: Flags }) {
  return (
    <div className={classes.cell}>
      <span className={cell.score === null ? classes.none : undefined}>{cell.score ?? '–'}</span>
      {cell.missing ? (
        <span className={classes.flag} data-flag="missing">
          {flags.missing}
        </span>
      ) : null}
      {cell.late ? (
        <span className={classes.flag} data-flag="late">
          {flags.late}
        </span>
      ) : null}
      {cell.extended ? (
        <span className={classes.flag} data-flag="extended" title={flags.extendedHint}>
          <IconClockPlus size={10} aria-hidden />
          {flags.extended}
        </span>
      ) : null}
    </div>
  );
}
