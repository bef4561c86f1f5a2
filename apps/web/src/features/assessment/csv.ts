/** A cell of a CSV file: text, a number, or nothing. */
export type CsvValue = string | number | null;

/** Characters a spreadsheet reads as the start of a formula (and the control characters OWASP adds). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: text that a spreadsheet would run as a formula gets an apostrophe in front (a student's
 * name is theirs to choose), and a cell with a quote, comma or line break is quoted with its quotes
 * doubled. Numbers are written as they are: they are ours, never a formula.
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows as CSV text with CRLF line ends (RFC 4180). */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** UTF-8 with a byte-order mark, so Excel reads Japanese names right. */
export function csvBlob(rows: readonly (readonly CsvValue[])[]): Blob {
  return new Blob(['\uFEFF', toCsv(rows)], { type: 'text/csv;charset=utf-8' });
}
