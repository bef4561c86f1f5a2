/** One line of a line diff between the expected and the actual output. */
export interface DiffLine {
  /** `same` in both, `removed` only expected, `added` only in the actual output. */
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** 1-based line numbers in the expected and actual output. */
  expectedLine: number | null;
  actualLine: number | null;
}

/** Above this many lines × lines the diff is not computed (the table would be 64 MB): see `tooLong`. */
export const MAX_DIFF_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export interface DiffResult {
  lines: DiffLine[];
  /** True when the outputs were too long to compare line by line. */
  tooLong: boolean;
  identical: boolean;
}

/**
 * A line diff (longest common subsequence) of the expected and actual output, as `diff -u` shows it:
 * removed lines (expected only) before added ones (actual only) at each change.
 */
export function diffLines(expected: string, actual: string): DiffResult {
  const a = splitLines(expected);
  const b = splitLines(actual);
  // Common head and tail cost nothing to match and keep the table small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail += 1;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const identical = midA.length === 0 && midB.length === 0;
  if ((midA.length + 1) * (midB.length + 1) > MAX_DIFF_CELLS) {
    return { lines: [], tooLong: true, identical };
  }

  const lines: DiffLine[] = [];
  for (let i = 0; i < head; i += 1) {
    lines.push({ kind: 'same', text: a[i]!, expectedLine: i + 1, actualLine: i + 1 });
  }

  // lcs[i][j]: length of the LCS of midA[i..] and midB[j..].
  const n = midA.length;
  const m = midB.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      lines.push({ kind: 'same', text: midA[i]!, expectedLine: head + i + 1, actualLine: head + j + 1 });
      i += 1;
      j += 1;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      lines.push({ kind: 'removed', text: midA[i]!, expectedLine: head + i + 1, actualLine: null });
      i += 1;
    } else {
      lines.push({ kind: 'added', text: midB[j]!, expectedLine: null, actualLine: head + j + 1 });
      j += 1;
    }
  }

  for (let k = 0; k < tail; k += 1) {
    lines.push({
      kind: 'same',
      text: a[a.length - tail + k]!,
      expectedLine: a.length - tail + k + 1,
      actualLine: b.length - tail + k + 1,
    });
  }
  return { lines, tooLong: false, identical };
}
