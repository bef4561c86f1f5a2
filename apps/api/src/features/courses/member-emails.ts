import { Email } from '@kadai/contracts';

export interface CollectedEmails {
  /** Valid addresses, lower-cased, each once, in the order first seen. */
  emails: string[];
  /** Entries that could not be used, as given (each once). */
  invalid: string[];
}

const SEPARATORS = new Set([',', ';', '\t']);
const MAX_REPORTED_LENGTH = 254;

/**
 * Splits CSV-like text into records of cells. Accepts what spreadsheets and mail clients produce:
 * comma, semicolon or tab between cells (whichever is used), CRLF/LF/CR line ends, a byte-order mark, and double-quoted cells
 * (with `""` for a quote, and line breaks inside quotes).
 */
export function parseCsvRecords(text: string): string[][] {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
    } else if (SEPARATORS.has(c)) {
      record.push(cell);
      cell = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  record.push(cell);
  records.push(record);
  return records;
}

/** `"Taro Yamada" <taro@example.jp>`, `mailto:taro@example.jp` and plain addresses all give the address. */
function candidatesIn(cell: string): string[] {
  return cell
    .split(/\s+/)
    .filter((token) => token.includes('@'))
    .map((token) => token.replace(/^[<("'[]+|[>)"'\]]+$/g, '').replace(/^mailto:/i, ''));
}

function isEmail(candidate: string): boolean {
  return Email.safeParse(candidate).success;
}

function clip(text: string): string {
  return text.length > MAX_REPORTED_LENGTH ? `${text.slice(0, MAX_REPORTED_LENGTH)}…` : text;
}

/**
 * Gathers the addresses of an add-members request: each `emails` entry is one address; in `csv`, every
 * cell that holds an `@` is taken. Lines before the first address are a header or preamble and skipped;
 * a later line with no address at all is reported in `invalid`, so nobody on the list is dropped silently.
 */
export function collectEmails(listed: string[], csv: string | undefined): CollectedEmails {
  const emails = new Set<string>();
  const invalid = new Set<string>();
  const take = (candidate: string) => {
    const address = candidate.trim().toLowerCase();
    if (address === '') return;
    if (isEmail(address)) emails.add(address);
    else invalid.add(clip(candidate.trim()));
  };

  for (const entry of listed) take(entry);

  if (csv !== undefined) {
    let seenAddress = false;
    for (const record of parseCsvRecords(csv)) {
      const cells = record.map((c) => c.trim()).filter((c) => c !== '');
      if (cells.length === 0) continue;
      const candidates = cells.flatMap(candidatesIn);
      if (candidates.length === 0) {
        if (seenAddress) invalid.add(clip(cells.join(', ')));
        continue;
      }
      seenAddress = true;
      for (const candidate of candidates) take(candidate);
    }
  }
  return { emails: [...emails], invalid: [...invalid] };
}
