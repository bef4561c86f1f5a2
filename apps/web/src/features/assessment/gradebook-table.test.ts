import { describe, expect, it } from 'vitest';
import type { GradebookRow } from '@kadai/contracts';
import { filterGradebook, maxDueSoFar, sortGradebook } from './gradebook-table.ts';

const row = (
  id: number,
  last: string,
  first: string,
  scores: (number | null)[],
  flags = { late: 0, missing: 0 },
) =>
  ({
    user: { id, email: `${first.toLowerCase()}@example.ac.jp`, first_name: first, last_name: last },
    cells: scores.map((score) => ({
      score,
      attempts: score === null ? 0 : 1,
      late: false,
      missing: score === null,
      extended: false,
    })),
    total: scores.reduce<number>((sum, score) => sum + (score ?? 0), 0),
    ...flags,
  }) satisfies GradebookRow;

const book = {
  columns: [
    {
      key: 'a1',
      kind: 'assignment' as const,
      id: 1,
      item_id: 1,
      title: 'Week 1',
      due_at: '2026-01-01T00:00:00.000Z',
      max_score: 10,
    },
  ],
};
const rows = [
  row(1, 'Yamada', 'Taro', [4], { late: 1, missing: 0 }),
  row(2, 'Abe', 'Ann', [null], { late: 0, missing: 1 }),
  row(3, 'Baba', 'Bob', [9]),
];

describe('the gradebook table', () => {
  it('filters by name or e-mail, and by missing or late work', () => {
    expect(filterGradebook(rows, 'ann@', 'all', 'en-US').map((r) => r.user.id)).toEqual([2]);
    expect(filterGradebook(rows, 'YAMA', 'all', 'en-US').map((r) => r.user.id)).toEqual([1]);
    expect(filterGradebook(rows, '', 'missing', 'en-US').map((r) => r.user.id)).toEqual([2]);
    expect(filterGradebook(rows, '', 'late', 'en-US').map((r) => r.user.id)).toEqual([1]);
  });

  it('sorts by a column with nothing-submitted last either way, and by name', () => {
    const by = (key: string, direction: 'ascending' | 'descending') =>
      sortGradebook(book, rows, { key, direction }, 'en-US').map((r) => r.user.id);
    expect(by('a1', 'descending')).toEqual([3, 1, 2]);
    expect(by('a1', 'ascending')).toEqual([1, 3, 2]);
    expect(by('total', 'descending')).toEqual([3, 1, 2]);
    // In English, first name first: Ann Abe, Bob Baba, Taro Yamada.
    expect(by('name', 'ascending')).toEqual([2, 3, 1]);
  });

  it('adds up the maximum of the columns already due, the full total aside', () => {
    const column = (key: string, due_at: string, max_score: number) => ({
      ...book.columns[0]!,
      key,
      due_at,
      max_score,
    });
    const columns = [
      column('a1', '2026-01-01T00:00:00.000Z', 10),
      column('q2', '2026-02-01T00:00:00.000Z', 4),
      column('a3', '2026-03-01T00:00:00.000Z', 38),
    ];
    expect(maxDueSoFar(columns, Date.parse('2025-12-31T00:00:00.000Z'))).toBe(0);
    expect(maxDueSoFar(columns, Date.parse('2026-02-01T00:00:00.000Z'))).toBe(14);
    expect(maxDueSoFar(columns, Date.parse('2026-06-01T00:00:00.000Z'))).toBe(52);
  });
});
