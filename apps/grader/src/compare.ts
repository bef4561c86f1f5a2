/**
 * The comparisons of input/output tests. They run in the grader, outside the student's process, on
 * the output the sandbox captured: nothing the program does can change how it is judged.
 */
export type Comparison = 'exact' | 'whitespace' | 'numeric';

export interface ComparisonResult {
  equal: boolean;
  /** Where they differ, without quoting the expected output (hidden tests must not leak it). */
  hint: string;
}

const same: ComparisonResult = { equal: true, hint: '' };

/** CRLF becomes LF, and one trailing newline is ignored (editors rarely agree on the last newline). */
export function normalizeExact(text: string): string {
  const unix = text.replace(/\r\n/g, '\n');
  return unix.endsWith('\n') ? unix.slice(0, -1) : unix;
}

/** Splits on any run of whitespace (as Python's `str.split()` does); empty output has no tokens. */
export function tokens(text: string): string[] {
  return text.split(/\s+/).filter((token) => token.length > 0);
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** A number as Python prints one (`3`, `-0.5`, `1e-9`, `inf`, `nan`); null for anything else (`0x1f`, `1,5`). */
export function parseNumber(token: string): number | null {
  if (DECIMAL.test(token)) return Number.parseFloat(token);
  const special = SPECIAL.exec(token);
  if (!special) return null;
  if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
  return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

/**
 * Equal within `tolerance`, absolute or relative to the larger magnitude. NaN equals only NaN and an
 * infinity only the same infinity (a tolerance never makes `inf` match a large number).
 */
export function numbersClose(expected: number, actual: number, tolerance: number): boolean {
  if (Number.isNaN(expected) || Number.isNaN(actual)) return Number.isNaN(expected) && Number.isNaN(actual);
  if (!Number.isFinite(expected) || !Number.isFinite(actual)) return expected === actual;
  const difference = Math.abs(expected - actual);
  return difference <= tolerance || difference <= tolerance * Math.max(Math.abs(expected), Math.abs(actual));
}

function compareTokens(
  expected: string[],
  actual: string[],
  equalToken: (e: string, a: string) => boolean,
): ComparisonResult {
  const count = Math.min(expected.length, actual.length);
  for (let i = 0; i < count; i += 1) {
    if (!equalToken(expected[i]!, actual[i]!)) return { equal: false, hint: `Token ${i + 1} differs.` };
  }
  if (expected.length !== actual.length) {
    return {
      equal: false,
      hint: `Expected ${expected.length} token${expected.length === 1 ? '' : 's'}, got ${actual.length}.`,
    };
  }
  return same;
}

export function compareOutput(
  comparison: Comparison,
  expected: string,
  actual: string,
  tolerance = 1e-6,
): ComparisonResult {
  switch (comparison) {
    case 'exact': {
      const e = normalizeExact(expected);
      const a = normalizeExact(actual);
      if (e === a) return same;
      const eLines = e.split('\n');
      const aLines = a.split('\n');
      const line = eLines.findIndex((text, i) => text !== aLines[i]);
      return {
        equal: false,
        hint:
          line >= 0 ? `Line ${line + 1} differs.` : `Expected ${eLines.length} lines, got ${aLines.length}.`,
      };
    }
    case 'whitespace':
      return compareTokens(tokens(expected), tokens(actual), (e, a) => e === a);
    case 'numeric':
      return compareTokens(tokens(expected), tokens(actual), (e, a) => {
        if (e === a) return true;
        const x = parseNumber(e);
        const y = parseNumber(a);
        return x !== null && y !== null && numbersClose(x, y, tolerance);
      });
  }
}
