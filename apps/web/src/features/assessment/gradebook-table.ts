import type { Gradebook, GradebookRow } from '@kadai/contracts';
import { memberName } from '../courses/member-name.ts';

/** What the table sorts by: the name, the total, or one column (by its key, `a12` / `q3`). */
export type GradebookSortKey = 'name' | 'total' | string;
export interface GradebookSort {
  key: GradebookSortKey;
  direction: 'ascending' | 'descending';
}
/** Which rows show: everyone, or those with missing or late work. */
export type GradebookFilter = 'all' | 'missing' | 'late';

/** Rows whose name or e-mail holds `search` (case-insensitive, NFC) and that pass `filter`. */
export function filterGradebook(
  rows: readonly GradebookRow[],
  search: string,
  filter: GradebookFilter,
  language: string,
): GradebookRow[] {
  const needle = search.normalize('NFC').trim().toLocaleLowerCase();
  return rows.filter((row) => {
    if (filter === 'missing' && row.missing === 0) return false;
    if (filter === 'late' && row.late === 0) return false;
    if (!needle) return true;
    const haystack = `${memberName(row.user, language)} ${row.user.email}`.toLocaleLowerCase();
    return haystack.includes(needle);
  });
}

/** Rows in order; a missing score sorts below every score whichever way the column goes. */
export function sortGradebook(
  book: Pick<Gradebook, 'columns'>,
  rows: readonly GradebookRow[],
  sort: GradebookSort,
  language: string,
): GradebookRow[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const collator = new Intl.Collator(language);
  const index = book.columns.findIndex((column) => column.key === sort.key);
  const value = (row: GradebookRow): number | null =>
    sort.key === 'total' ? row.total : index >= 0 ? (row.cells[index]?.score ?? null) : null;
  const byName = (a: GradebookRow, b: GradebookRow) =>
    collator.compare(memberName(a.user, language), memberName(b.user, language)) || a.user.id - b.user.id;
  return [...rows].sort((a, b) => {
    if (sort.key === 'name') return sign * byName(a, b);
    const left = value(a);
    const right = value(b);
    if (left === null || right === null) {
      if (left === right) return byName(a, b);
      return left === null ? 1 : -1;
    }
    return sign * (left - right) || byName(a, b);
  });
}

/**
 * The points of the columns already due at `now` (the course's dates, not a student's extension): what a
 * total can have reached so far, shown beside the full maximum so that "7 of 52" early in a term reads
 * as 7 of the 10 points due.
 */
export function maxDueSoFar(columns: Pick<Gradebook, 'columns'>['columns'], now: number): number {
  return columns.reduce((sum, column) => sum + (Date.parse(column.due_at) <= now ? column.max_score : 0), 0);
}
