import type { AssessmentTable } from '@kadai/contracts';
import { memberName } from '../courses/member-name.ts';
import type { CsvValue } from './csv.ts';

export type StudentRow = AssessmentTable['students'][number];

/** A column of the table: the student, the total, or the n-th skill, assignment or quiz. */
export type ColumnKey = 'name' | 'total' | `skill:${number}` | `assignment:${number}` | `quiz:${number}`;
export type SortDirection = 'ascending' | 'descending';
export interface Sort {
  key: ColumnKey;
  direction: SortDirection;
}

/** The value a column sorts by: the name, a ratio (skills, total) or points; null when it does not count. */
export function columnValue(row: StudentRow, key: ColumnKey, language: string): string | number | null {
  if (key === 'name') return memberName(row.user, language);
  if (key === 'total') return row.total.ratio;
  const [kind, position] = key.split(':');
  const index = Number(position);
  if (kind === 'skill') return row.skills[index]?.ratio ?? null;
  if (kind === 'assignment') return row.assignments[index] ?? null;
  return row.quizzes[index] ?? null;
}

/**
 * Sorted by one column; rows without a value go last in either direction (an empty cell is not a low
 * score), and ties keep the name order so the table does not jump when results refresh.
 */
export function sortRows(rows: readonly StudentRow[], sort: Sort, language: string): StudentRow[] {
  const collator = new Intl.Collator(language, { numeric: true, sensitivity: 'base' });
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const byName = (a: StudentRow, b: StudentRow) =>
    collator.compare(memberName(a.user, language), memberName(b.user, language)) || a.user.id - b.user.id;
  return [...rows].sort((a, b) => {
    const left = columnValue(a, sort.key, language);
    const right = columnValue(b, sort.key, language);
    if (left === null || right === null) {
      if (left === right) return byName(a, b);
      return left === null ? 1 : -1;
    }
    const order =
      typeof left === 'number' && typeof right === 'number'
        ? left - right
        : collator.compare(String(left), String(right));
    return order !== 0 ? sign * order : byName(a, b);
  });
}

const normalise = (value: string) => value.normalize('NFKC').toLowerCase();

/** Rows whose name (either order) or e-mail contains the search, ignoring case and full-width forms. */
export function filterRows(rows: readonly StudentRow[], search: string): StudentRow[] {
  const needle = normalise(search.trim());
  if (!needle) return [...rows];
  return rows.filter(({ user }) =>
    [
      `${user.first_name} ${user.last_name}`,
      `${user.last_name} ${user.first_name}`,
      `${user.last_name}${user.first_name}`,
      user.email,
    ].some((text) => normalise(text).includes(needle)),
  );
}

/** A ratio as a percentage with one decimal for the CSV (null: empty cell). */
export function percentValue(ratio: number | null): number | null {
  return ratio === null ? null : Math.round(ratio * 1000) / 10;
}

export interface CsvLabels {
  student: string;
  email: string;
  totalPercent: string;
  earned: string;
  possible: string;
  /** The header of a skill's column, from its name. */
  skill: (name: string) => string;
}

/** The table as CSV rows, in the order the page shows them: one row per student, a header first. */
export function tableCsvRows(
  table: AssessmentTable,
  rows: readonly StudentRow[],
  labels: CsvLabels,
  language: string,
): CsvValue[][] {
  const header: CsvValue[] = [
    labels.student,
    labels.email,
    labels.totalPercent,
    labels.earned,
    labels.possible,
    ...table.skills.map((skill) => labels.skill(skill.name)),
    ...table.assignments.map((column) => column.title),
    ...table.quizzes.map((column) => column.title),
  ];
  return [
    header,
    ...rows.map((row) => [
      memberName(row.user, language),
      row.user.email,
      percentValue(row.total.ratio),
      row.total.earned,
      row.total.possible,
      ...row.skills.map((score) => percentValue(score.ratio)),
      ...row.assignments,
      ...row.quizzes,
    ]),
  ];
}
