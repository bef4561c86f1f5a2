/** Lines of a file chosen for a comment: 1-based, inclusive, start ≤ end. */
export interface LineRange {
  start: number;
  end: number;
}

export function rangeOf(a: number, b: number): LineRange {
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/**
 * A click on a line number: a new range of that line, or with shift the range from the line first
 * clicked (the anchor) to this one.
 */
export function clickLine(
  current: { anchor: number; range: LineRange } | null,
  line: number,
  extend: boolean,
): { anchor: number; range: LineRange } {
  if (extend && current) return { anchor: current.anchor, range: rangeOf(current.anchor, line) };
  return { anchor: line, range: rangeOf(line, line) };
}

/**
 * The lines a text selection covers, null for an empty one. A selection that ends at the very start of
 * a line (a whole line selected with its line break) does not take that next line.
 */
export function selectionLines(
  from: { line: number; column: number },
  to: { line: number; column: number },
): LineRange | null {
  if (from.line === to.line && from.column === to.column) return null;
  const end = to.line > from.line && to.column === 0 ? to.line - 1 : to.line;
  return rangeOf(from.line, end);
}

/** Whether two ranges share a line. */
export function overlaps(a: LineRange, b: LineRange): boolean {
  return a.start <= b.end && b.start <= a.end;
}
