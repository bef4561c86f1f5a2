import {
  AssignmentCreate,
  BUNDLE_FORMAT_VERSION,
  BundleAssignment,
  DEFAULT_TEST_FILE_NAME,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_SCRIPT_TEXT,
  MAX_TEST_CASES,
  MAX_TEST_TEXT,
  TestCaseCreate,
  UploadFileName,
  type BundleTestCase,
} from '@kadai/contracts';
import type { z } from 'zod';
import { badRequest } from '../../lib/errors.ts';
import { archiverJunk, type ZipEntry } from '../../lib/zip.ts';

/**
 * The layout of an assignment bundle (docs/assignments.md, "Bundles"): what an export writes and what
 * an import accepts. Pure: no database, no storage; the service reads and writes those.
 */

/** What a bundle holds: the assignment without course dates, its attachments and its test cases. */
export interface BundleContent {
  assignment: Omit<AssignmentCreate, 'courses'>;
  attachments: { filename: string; data: Buffer }[];
  /** In order; positions are given by the importer. */
  testCases: Omit<TestCaseCreate, 'position'>[];
}

export const invalidBundle = (detail: string) => badRequest(detail, undefined, 'invalid_bundle');

const AssignmentTexts = AssignmentCreate.omit({ courses: true });
/** The entry each field of an assignment comes from, for error messages. */
const ASSIGNMENT_ENTRY: Record<string, string> = {
  statement: 'statement.md',
  starter_code: 'starter/',
  reference_solution: 'reference/',
};
/** Test case fields kept in files of their own beside test.json. */
const TEST_TEXT_FILES = {
  stdin: 'input.txt',
  expected_stdout: 'expected.txt',
  driver: 'driver.py',
  check_script: 'check.py',
} as const;
const FILE_BACKED_KEYS = new Set([
  'stdin',
  'expected_stdout',
  'driver',
  'check_script',
  'test_code',
  'position',
]);
const JSON_BYTES = 64 * 1024;
/** The schema's limit on a statement, in characters. */
const STATEMENT_CHARS = 200_000;
/** Text limits are in characters; UTF-8 needs at most three bytes for each (UTF-16) character. */
const utf8Bytes = (chars: number) => 3 * chars;
const TEST_FOLDER = /^(\d{1,3})(-[A-Za-z0-9_.-]*)?$/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encode = (text: string) => Buffer.from(text, 'utf8');

/* ─── Export ───────────────────────────────────────────────────────────────────────────────────── */

/** Lower-case ASCII words joined by `-`, for folder and file names; `fallback` when nothing is left. */
export function slugOf(text: string, fallback: string, max = 40): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** The files of a bundle, path → bytes. Empty texts are left out; the importer reads them as empty. */
export function buildBundle(content: BundleContent): Map<string, Uint8Array> {
  const a = content.assignment;
  const meta: BundleAssignment = {
    format_version: BUNDLE_FORMAT_VERSION,
    title: a.title,
    entry_file: a.entry_file,
    required_files: a.required_files,
    allowed_extensions: a.allowed_extensions,
    max_files: a.max_files,
    max_file_bytes: a.max_file_bytes,
  };
  const files = new Map<string, Uint8Array>();
  files.set('assignment.json', encode(`${JSON.stringify(meta, null, 2)}\n`));
  files.set('statement.md', encode(a.statement));
  if (a.starter_code !== '') files.set(`starter/${a.entry_file}`, encode(a.starter_code));
  if (a.reference_solution !== '') files.set(`reference/${a.entry_file}`, encode(a.reference_solution));
  for (const file of content.attachments) files.set(`files/${file.filename}`, file.data);
  content.testCases.forEach((t, index) => {
    const folder = `tests/${String(index + 1).padStart(2, '0')}-${slugOf(t.name, 'test')}`;
    const json: BundleTestCase = {
      name: t.name,
      kind: t.kind,
      ...(t.points_auto ? { points_auto: true } : { points: t.points }),
      visibility: t.visibility,
      time_limit_ms: t.time_limit_ms,
      memory_limit_mb: t.memory_limit_mb,
      comparison: t.comparison,
      tolerance: t.tolerance,
      test_file_name: t.test_file_name,
    };
    files.set(`${folder}/test.json`, encode(`${JSON.stringify(json, null, 2)}\n`));
    for (const [field, name] of Object.entries(TEST_TEXT_FILES)) {
      const text = t[field as keyof typeof TEST_TEXT_FILES];
      if (text !== '') files.set(`${folder}/${name}`, encode(text));
    }
    if (t.test_code !== '') files.set(`${folder}/${t.test_file_name}`, encode(t.test_code));
  });
  return files;
}

/* ─── Import ───────────────────────────────────────────────────────────────────────────────────── */

const TOP_LEVEL =
  'assignment.json, statement.md, starter/, reference/, files/ and tests/ (at its root, or all in one folder)';

/** The layout's own folders: a zip of one of them alone is a bundle without its assignment.json. */
const LAYOUT_FOLDERS = new Set(['starter', 'reference', 'files', 'tests']);

/**
 * The one folder every entry is in (`sum-of-two` of `sum-of-two/assignment.json`, …), or null: a zip of
 * a folder, as "Compress" on macOS and Windows or `zip -r` make it. A file at the root (assignment.json
 * above all) means the layout starts at the root; two folders are read as they are, and refused. A
 * layout folder (a zip of `tests/` alone) is read as it is too, so that what is missing is named in
 * the layout's own words rather than its contents being taken for a bundle.
 */
function commonFolder(names: readonly string[]): string | null {
  if (names.some((name) => !name.includes('/'))) return null;
  const tops = new Set(names.map((name) => name.slice(0, name.indexOf('/'))));
  const [folder] = tops;
  return tops.size === 1 && !LAYOUT_FOLDERS.has(folder!) ? folder! : null;
}

/**
 * How a bundle's entries are read (`readZip`'s `layout`): what the archiver added is left out unread, and
 * a zip of one folder is read from inside it. Only names that passed the zip's safety checks get here.
 */
export function bundleLayout(names: readonly string[]): (name: string) => string | null {
  const isJunk = archiverJunk(names);
  const folder = commonFolder(names.filter((name) => !isJunk(name)));
  return (name) => {
    if (isJunk(name)) return null;
    if (folder === null) return name;
    // The folder's own entry (`sum-of-two/`) stands for the root, which needs none.
    const inner = name.slice(folder.length + 1);
    return inner === '' ? null : inner;
  };
}

/**
 * The most bytes an entry may inflate to, by where it is; a name outside the format is refused before
 * anything is inflated.
 */
export function bundleEntryLimit(name: string): number {
  const parts = name.split('/');
  const [top] = parts;
  if (parts.length === 1 && top === 'assignment.json') return JSON_BYTES;
  if (parts.length === 1 && top === 'statement.md') return utf8Bytes(STATEMENT_CHARS);
  if (parts.length === 2 && (top === 'starter' || top === 'reference')) return utf8Bytes(MAX_SCRIPT_TEXT);
  if (parts.length === 2 && top === 'files') return MAX_ATTACHMENT_BYTES;
  if (parts.length === 3 && top === 'tests') {
    const file = parts[2];
    if (file === 'test.json') return JSON_BYTES;
    if (file === 'input.txt' || file === 'expected.txt') return utf8Bytes(MAX_TEST_TEXT);
    return utf8Bytes(MAX_SCRIPT_TEXT);
  }
  throw invalidBundle(`Entry "${name}" is not part of the bundle format: it may hold only ${TOP_LEVEL}.`);
}

/** A folder entry must lie on the way to a file the format allows. */
function checkFolder(name: string): void {
  const parts = name.slice(0, -1).split('/');
  const [top] = parts;
  const allowed =
    (parts.length === 1 && ['starter', 'reference', 'files', 'tests'].includes(top!)) ||
    (parts.length === 2 && top === 'tests');
  if (!allowed) {
    throw invalidBundle(`Entry "${name}" is not part of the bundle format: it may hold only ${TOP_LEVEL}.`);
  }
}

function textOf(entry: ZipEntry): string {
  try {
    return utf8.decode(entry.data);
  } catch {
    throw invalidBundle(`Entry "${entry.name}" is not UTF-8 text.`);
  }
}

function jsonOf(entry: ZipEntry): unknown {
  try {
    return JSON.parse(textOf(entry));
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidBundle(`Entry "${entry.name}" is not valid JSON.`);
    throw error;
  }
}

function describeIssues(error: z.ZodError, entryOf: (field: string) => string): string {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return `${entryOf(String(issue.path[0] ?? ''))}: ${field ? `${field}: ` : ''}${issue.message}`;
}

/** The one file of `starter/` or `reference/`, which must be named after the entry file. */
function codeOf(files: ZipEntry[], folder: string, entryFile: string): string {
  const inFolder = files.filter((f) => f.name.startsWith(`${folder}/`));
  const wrong = inFolder.find((f) => f.name !== `${folder}/${entryFile}`);
  if (wrong)
    throw invalidBundle(`Entry "${wrong.name}": ${folder}/ holds only the entry file, "${entryFile}".`);
  return inFolder[0] ? textOf(inFolder[0]) : '';
}

function parseAssignment(files: ZipEntry[]): BundleContent['assignment'] {
  const metaEntry = files.find((f) => f.name === 'assignment.json');
  if (!metaEntry) throw invalidBundle('The bundle has no assignment.json.');
  const meta = BundleAssignment.safeParse(jsonOf(metaEntry));
  if (!meta.success) throw invalidBundle(describeIssues(meta.error, () => 'assignment.json'));
  const statementEntry = files.find((f) => f.name === 'statement.md');
  const { format_version: _version, ...fields } = meta.data;
  const parsed = AssignmentTexts.safeParse({
    ...fields,
    statement: statementEntry ? textOf(statementEntry) : '',
    starter_code: codeOf(files, 'starter', fields.entry_file),
    reference_solution: codeOf(files, 'reference', fields.entry_file),
  });
  if (!parsed.success) {
    throw invalidBundle(
      describeIssues(parsed.error, (field) =>
        field === 'starter_code' || field === 'reference_solution'
          ? `${ASSIGNMENT_ENTRY[field]}${fields.entry_file}`
          : (ASSIGNMENT_ENTRY[field] ?? 'assignment.json'),
      ),
    );
  }
  return parsed.data;
}

function parseAttachments(files: ZipEntry[]): BundleContent['attachments'] {
  const attachments = files.filter((f) => f.name.startsWith('files/'));
  if (attachments.length > MAX_ATTACHMENTS) {
    throw invalidBundle(
      `The bundle has ${attachments.length} files; at most ${MAX_ATTACHMENTS} are allowed.`,
    );
  }
  const seen = new Set<string>();
  return attachments.map((f) => {
    // The rule of any attachment (any script, NFC), so what was attached exports and imports again.
    const checked = UploadFileName.safeParse(f.name.slice('files/'.length));
    if (!checked.success) throw invalidBundle(`Entry "${f.name}": ${checked.error.issues[0]!.message}`);
    // "が" and "か" + U+3099 are one name once normalised.
    if (seen.has(checked.data)) throw invalidBundle(`Entry "${f.name}": another file has the same name.`);
    seen.add(checked.data);
    return { filename: checked.data, data: f.data };
  });
}

function parseTestCase(folder: string, files: ZipEntry[]): BundleContent['testCases'][number] {
  const at = (name: string) => files.find((f) => f.name === `${folder}/${name}`);
  const jsonEntry = at('test.json');
  if (!jsonEntry) throw invalidBundle(`The test case "${folder}/" has no test.json.`);
  const json = jsonOf(jsonEntry);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw invalidBundle(`Entry "${jsonEntry.name}" must hold a JSON object.`);
  }
  const inFile = Object.keys(json).find((key) => FILE_BACKED_KEYS.has(key));
  if (inFile) {
    throw invalidBundle(
      `Entry "${jsonEntry.name}": "${inFile}" is not set in test.json (texts are files of their own).`,
    );
  }
  const testFileName =
    'test_file_name' in json && typeof json.test_file_name === 'string'
      ? json.test_file_name
      : DEFAULT_TEST_FILE_NAME;
  const known = new Set(['test.json', ...Object.values(TEST_TEXT_FILES), testFileName]);
  const stray = files.find((f) => !known.has(f.name.slice(folder.length + 1)));
  if (stray) throw invalidBundle(`Entry "${stray.name}" is not part of a test case.`);
  const text = (name: string) => {
    const entry = at(name);
    return entry ? textOf(entry) : '';
  };
  const parsed = TestCaseCreate.safeParse({
    ...json,
    stdin: text(TEST_TEXT_FILES.stdin),
    expected_stdout: text(TEST_TEXT_FILES.expected_stdout),
    driver: text(TEST_TEXT_FILES.driver),
    check_script: text(TEST_TEXT_FILES.check_script),
    test_code: text(testFileName),
  });
  if (!parsed.success) throw invalidBundle(describeIssues(parsed.error, () => jsonEntry.name));
  const { position: _position, ...testCase } = parsed.data;
  return testCase;
}

function parseTestCases(files: ZipEntry[]): BundleContent['testCases'] {
  const folders = new Map<string, { order: number; files: ZipEntry[] }>();
  for (const file of files.filter((f) => f.name.startsWith('tests/'))) {
    const folder = file.name.split('/').slice(0, 2).join('/');
    let group = folders.get(folder);
    if (!group) {
      const match = TEST_FOLDER.exec(folder.slice('tests/'.length));
      if (!match)
        throw invalidBundle(`Entry "${file.name}": a test folder is named NN-<name>, e.g. "01-adds".`);
      group = { order: Number(match[1]), files: [] };
      folders.set(folder, group);
    }
    group.files.push(file);
  }
  if (folders.size > MAX_TEST_CASES) {
    throw invalidBundle(`The bundle has ${folders.size} test cases; at most ${MAX_TEST_CASES} are allowed.`);
  }
  const ordered = [...folders].sort(([, a], [, b]) => a.order - b.order);
  ordered.forEach(([folder, group], i) => {
    if (i > 0 && ordered[i - 1]![1].order === group.order) {
      throw invalidBundle(`Entry "${folder}/": two test folders have the number ${group.order}.`);
    }
  });
  return ordered.map(([folder, group]) => parseTestCase(folder, group.files));
}

/** The content of a bundle's entries (already inflated within limits), or a 400 `invalid_bundle`. */
export function parseBundle(entries: ZipEntry[]): BundleContent {
  for (const entry of entries) if (entry.isDirectory) checkFolder(entry.name);
  const files = entries.filter((e) => !e.isDirectory);
  return {
    assignment: parseAssignment(files),
    attachments: parseAttachments(files),
    testCases: parseTestCases(files),
  };
}
