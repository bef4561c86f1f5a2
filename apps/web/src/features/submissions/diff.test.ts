import { describe, expect, it } from 'vitest';
import { MAX_DIFF_CELLS, diffLines } from './diff.ts';

const compact = (expected: string, actual: string) =>
  diffLines(expected, actual).lines.map(
    (line) => `${{ same: ' ', removed: '-', added: '+' }[line.kind]}${line.text}`,
  );

describe('diffLines', () => {
  it('finds nothing to mark in identical output', () => {
    const result = diffLines('1\n2\n', '1\n2\n');
    expect(result.identical).toBe(true);
    expect(compact('1\n2\n', '1\n2\n')).toEqual([' 1', ' 2']);
  });

  it('marks a changed line as removed then added', () => {
    expect(compact('3\n5\n8\n', '3\n6\n8\n')).toEqual([' 3', '-5', '+6', ' 8']);
  });

  it('marks missing and extra lines', () => {
    expect(compact('a\nb\nc\n', 'a\nc\n')).toEqual([' a', '-b', ' c']);
    expect(compact('a\nc\n', 'a\nb\nc\nd\n')).toEqual([' a', '+b', ' c', '+d']);
  });

  it('numbers lines on both sides', () => {
    const { lines } = diffLines('x\ny\n', 'y\n');
    expect(lines).toEqual([
      { kind: 'removed', text: 'x', expectedLine: 1, actualLine: null },
      { kind: 'same', text: 'y', expectedLine: 2, actualLine: 1 },
    ]);
  });

  it('ignores a missing final newline and Windows line ends', () => {
    expect(diffLines('1\n2\n', '1\r\n2').identical).toBe(true);
  });

  it('handles empty output', () => {
    expect(compact('', 'hello\n')).toEqual(['+hello']);
    expect(compact('hello\n', '')).toEqual(['-hello']);
    expect(diffLines('', '').lines).toEqual([]);
  });

  it('gives up on outputs too long to compare, saying so', () => {
    const size = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1;
    const expected = Array.from({ length: size }, (_, i) => `e${i}`).join('\n');
    const actual = Array.from({ length: size }, (_, i) => `a${i}`).join('\n');
    expect(diffLines(expected, actual)).toMatchObject({ tooLong: true, lines: [] });
  });

  it('compares long outputs that differ in one line quickly', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => String(i));
    const changed = [...lines];
    changed[25_000] = 'x';
    const result = diffLines(lines.join('\n'), changed.join('\n'));
    expect(result.tooLong).toBe(false);
    expect(result.lines.filter((line) => line.kind !== 'same')).toHaveLength(2);
  });
});
