import { describe, expect, it } from 'vitest';
import { filterRows, percentValue, sortRows, tableCsvRows } from './assessment-table.ts';
import { TABLE } from './assessment-fixtures.ts';
import { toCsv } from './csv.ts';

const names = (rows: typeof TABLE.students) => rows.map((row) => row.user.first_name);

describe('the assessment table', () => {
  it('sorts by name, total, a skill, an assignment or a quiz, either way', () => {
    expect(names(sortRows(TABLE.students, { key: 'name', direction: 'ascending' }, 'en-US'))).toEqual([
      'Alice',
      'Hanako',
      'Taro',
    ]);
    expect(names(sortRows(TABLE.students, { key: 'total', direction: 'descending' }, 'en-US'))).toEqual([
      'Hanako',
      'Taro',
      'Alice',
    ]);
    expect(names(sortRows(TABLE.students, { key: 'skill:1', direction: 'ascending' }, 'en-US'))).toEqual([
      'Alice',
      'Taro',
      'Hanako',
    ]);
    expect(names(sortRows(TABLE.students, { key: 'assignment:0', direction: 'ascending' }, 'en-US'))).toEqual(
      ['Alice', 'Taro', 'Hanako'],
    );
  });

  it('puts results that do not count last in both directions', () => {
    for (const direction of ['ascending', 'descending'] as const) {
      expect(names(sortRows(TABLE.students, { key: 'quiz:0', direction }, 'en-US')).at(-1)).toBe('Alice');
      // Alice's first skill could earn nothing yet (ratio null).
      expect(names(sortRows(TABLE.students, { key: 'skill:0', direction }, 'en-US')).at(-1)).toBe('Alice');
    }
  });

  it('sorts by the family name first in Japanese', () => {
    expect(names(sortRows(TABLE.students, { key: 'name', direction: 'ascending' }, 'ja'))).toEqual([
      'Alice',
      'Hanako',
      'Taro',
    ]);
  });

  it('searches names in either order and e-mails, ignoring case and full-width letters', () => {
    expect(names(filterRows(TABLE.students, 'yamada taro'))).toEqual(['Taro']);
    expect(names(filterRows(TABLE.students, 'Taro Yamada'))).toEqual(['Taro']);
    expect(names(filterRows(TABLE.students, 'ＨＡＮＡＫＯ'))).toEqual(['Hanako']);
    expect(names(filterRows(TABLE.students, '@example'))).toHaveLength(3);
    expect(filterRows(TABLE.students, 'nobody')).toEqual([]);
    expect(filterRows(TABLE.students, '  ')).toHaveLength(3);
  });

  it('builds the CSV from the rows shown, percentages with one decimal, formulas defused', () => {
    const rows = tableCsvRows(
      TABLE,
      TABLE.students,
      {
        student: 'Student',
        email: 'E-mail',
        totalPercent: 'Total (%)',
        earned: 'Earned',
        possible: 'Possible',
        skill: (name) => `${name} (%)`,
      },
      'en-US',
    );
    expect(rows[0]).toEqual([
      'Student',
      'E-mail',
      'Total (%)',
      'Earned',
      'Possible',
      'Loops (%)',
      'Types (%)',
      'Week 1',
      'Week 2',
      'Quiz 1',
    ]);
    expect(rows[1]).toEqual(['Taro Yamada', 'taro@example.com', 72, 18, 25, 80, 60, 9, 6, 3]);
    const text = toCsv(rows);
    expect(text).toContain("Alice Brown,'=cmd@example.com,20,5,25,,20,5,,\r\n");
    expect(percentValue(2 / 3)).toBe(66.7);
  });
});
