/**
 * CSV for spreadsheets: UTF-8 with a byte-order mark (Excel then reads Japanese names correctly), CRLF
 * line ends, RFC 4180 quoting. A text cell a spreadsheet would take for a formula (starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so a student named `=HYPERLINK(…)`
 * stays text (OWASP "CSV injection").
 */
export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
