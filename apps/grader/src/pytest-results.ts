/**
 * Turns what the pytest harness reported on its result channel (see pytest/plugin.py) into one
 * evaluation with an item per collected test. The harness is trusted — the submission runs in another
 * process — but the channel is still validated line by line and every text capped: only collected tests
 * are scored, and nothing after `done` counts.
 */
import { z } from 'zod';
import { storedText } from './stored-text.ts';

export type ItemOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'time_limit';

export interface EvaluationItem {
  name: string;
  outcome: ItemOutcome;
  points: number;
  max_points: number;
  message: string;
  output: string;
}

/** Each item's message and output are kept up to this many characters… */
export const ITEM_TEXT_CHARS = 16 * 1024;
/** …and all items' texts of one evaluation together up to this; later items keep a short head only. */
export const ITEMS_TEXT_CHARS = 256 * 1024;
const SHORT_TEXT_CHARS = 512;
/** More collected tests than this are refused (the test file is reported as broken). */
export const MAX_ITEMS = 1000;
const MESSAGE_CHARS = 16 * 1024;

/**
 * Why a test file cannot run its tests, as data: a reader's language says the sentence
 * (`testCases.check.reason.<code>` of the web), and what it leaves out — Python's or pytest's own words —
 * is shown as written. The harness's codes (pytest/plugin.py) and those of `pytestVerdict`.
 */
export const BROKEN_CODES = [
  'unknown_module',
  'missing_name',
  'syntax_error',
  'import_error',
  'submission_time_limit',
  'submission_ended',
  'submission_input',
  'submission_exit',
  'submission_error',
  'collection_error',
  'pytest_error',
  'no_tests',
  'too_many_tests',
  'bad_points',
  'bad_time_limit',
] as const;
export type BrokenCode = (typeof BROKEN_CODES)[number];

/** A broken test file's reason: its code and the facts its sentence names. */
export interface BrokenReason {
  code: BrokenCode;
  /** The module imported: one the submission lacks, or the submission's that failed. */
  module?: string;
  /** The name a module lacks, or the test whose marker is wrong. */
  name?: string;
  /** The file and line it happened at (the test module, or a helper file it imports). */
  file?: string;
  line?: number;
  /** The submission's files (to say what a module name could have been). */
  files?: string[];
}

const Cause = z.object({
  code: z.enum(BROKEN_CODES),
  module: z.string().max(200).optional(),
  name: z.string().max(1000).optional(),
  file: z.string().max(200).optional(),
  line: z.number().int().optional(),
  files: z.array(z.string().max(200)).max(100).optional(),
  detail: z.string().optional(),
});
type Cause = z.infer<typeof Cause>;

const Record = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready') }),
  z.object({
    t: z.literal('error'),
    message: z.string(),
    reason: z.enum(['time_limit', 'memory_limit', 'ended']).nullish(),
    // A harness older than causes sends none; one this reader does not know must not lose the error.
    cause: Cause.nullish().catch(null),
  }),
  z.object({
    t: z.literal('collected'),
    items: z
      .array(z.object({ id: z.string().max(1000), points: z.number().int(), limit: z.number().int() }))
      .max(MAX_ITEMS + 1),
  }),
  z.object({
    t: z.literal('result'),
    id: z.string().max(1000),
    outcome: z.enum(['passed', 'failed', 'error', 'skipped', 'time_limit']),
    message: z.string(),
    output: z.string(),
    cpu_ms: z.number().int().min(0),
    memory: z.boolean(),
  }),
  z.object({ t: z.literal('worker-gone') }),
  z.object({ t: z.literal('infra'), message: z.string() }),
  z.object({ t: z.literal('done'), exit: z.number().int() }),
]);
type ChannelRecord = z.infer<typeof Record>;

export interface HarnessReport {
  ready: boolean;
  errors: string[];
  /** The first error's cause, when the harness gave one. */
  cause: Cause | null;
  /** Why the collection failed when a limit or the end of the submission's process is the cause. */
  errorReason: 'time_limit' | 'memory_limit' | 'ended' | null;
  collected: { id: string; points: number; limit: number }[] | null;
  results: Map<string, { outcome: ItemOutcome; message: string; output: string; memory: boolean }>;
  /** The submission's sandbox ended under the harness (a flood of output, or the host). */
  workerGone: boolean;
  /** The host failed the run (not the submission): it is retried. */
  infra: string | null;
  done: { exit: number } | null;
}

/** Reads the channel's JSON lines; a line that is not a valid record is ignored. */
export function readChannel(bytes: Uint8Array | undefined): HarnessReport {
  const report: HarnessReport = {
    ready: false,
    errors: [],
    cause: null,
    errorReason: null,
    collected: null,
    results: new Map(),
    workerGone: false,
    infra: null,
    done: null,
  };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes ?? new Uint8Array());
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    let record: ChannelRecord;
    try {
      const parsed = Record.safeParse(JSON.parse(line));
      if (!parsed.success) continue;
      record = parsed.data;
    } catch {
      continue;
    }
    if (report.done) break; // the harness leaves right after `done`: nothing after it is its own
    switch (record.t) {
      case 'ready':
        report.ready = true;
        break;
      case 'error':
        if (report.errors.length === 0) report.cause = record.cause ?? null;
        if (report.errors.length < 20) report.errors.push(record.message);
        report.errorReason ??= record.reason ?? null;
        break;
      case 'collected':
        report.collected = record.items;
        break;
      case 'result':
        report.results.set(record.id, {
          outcome: record.outcome,
          message: record.message,
          output: record.output,
          memory: record.memory,
        });
        break;
      case 'worker-gone':
        report.workerGone = true;
        break;
      case 'infra':
        report.infra ??= record.message;
        break;
      case 'done':
        report.done = { exit: record.exit };
        break;
    }
  }
  return report;
}

/** `test_main.py::TestX::test_y[1]` → `TestX::test_y[1]`. */
function shortName(id: string, testFile: string): string {
  return id.startsWith(`${testFile}::`) ? id.slice(testFile.length + 2) : id;
}

export type PytestVerdict =
  | {
      kind: 'items';
      items: EvaluationItem[];
      earned: number;
      total: number;
      summary: string;
      memory: boolean;
    }
  | {
      kind: 'broken';
      /** The whole explanation, in English: what a graded result shows. */
      message: string;
      /** The same as data, when the harness or this code knows it (an older harness may not). */
      reason: BrokenReason | null;
      /** What `reason` leaves out: pytest's or Python's own words, as written ('' when nothing). */
      detail: string;
    };

/**
 * The items of a finished run (the harness reported `done`), or why the test file could not run its
 * tests. Each test's outcome is the harness's: it held each one to its own limits.
 */
export function pytestVerdict(report: HarnessReport, testFile: string): PytestVerdict {
  if (report.errors.length > 0) {
    const message = storedText(report.errors.join('\n\n'), MESSAGE_CHARS);
    if (!report.cause) return { kind: 'broken', message, reason: null, detail: message };
    const { detail = '', ...reason } = report.cause;
    // Errors after the first (pytest may report several) are shown in full after its detail.
    const rest = report.errors.slice(1);
    return {
      kind: 'broken',
      message,
      reason,
      detail: storedText([detail, ...rest].filter(Boolean).join('\n\n'), MESSAGE_CHARS),
    };
  }
  const broken = (message: string, reason: BrokenReason): PytestVerdict => ({
    kind: 'broken',
    message,
    reason,
    detail: '',
  });
  if (!report.collected || report.collected.length === 0) {
    return broken(`No tests were collected from ${testFile}.`, { code: 'no_tests', file: testFile });
  }
  if (report.collected.length > MAX_ITEMS) {
    return broken(`${testFile} has more than ${MAX_ITEMS} tests.`, {
      code: 'too_many_tests',
      file: testFile,
    });
  }
  const badMarker = report.collected.find((c) => c.points < 0 || c.points > 1000);
  if (badMarker) {
    const name = shortName(badMarker.id, testFile);
    return broken(`${name}: @points(n) takes a whole number from 0 to 1000.`, { code: 'bad_points', name });
  }
  const badLimit = report.collected.find((c) => c.limit < 1);
  if (badLimit) {
    const name = shortName(badLimit.id, testFile);
    return broken(
      `${name}: @time_limit(ms) takes a whole number of milliseconds from ` +
        '1 to 60000 (@pytest.mark.timeout(s): seconds up to 60).',
      { code: 'bad_time_limit', name },
    );
  }

  let budget = ITEMS_TEXT_CHARS;
  let memory = false;
  const items = report.collected.map(({ id, points: worth }): EvaluationItem => {
    const result = report.results.get(id) ?? {
      outcome: 'error' as const,
      message: 'This test reported no result.',
      output: '',
      memory: false,
    };
    memory ||= result.memory;
    const share = Math.min(budget, ITEM_TEXT_CHARS);
    const message = storedText(result.message, Math.max(share, SHORT_TEXT_CHARS));
    const output = storedText(result.output, Math.max(share - message.length, SHORT_TEXT_CHARS));
    budget = Math.max(0, budget - message.length - output.length);
    return {
      name: storedText(shortName(id, testFile)),
      outcome: result.outcome,
      points: result.outcome === 'passed' ? worth : 0,
      max_points: worth,
      message,
      output,
    };
  });
  const earned = items.reduce((sum, item) => sum + item.points, 0);
  const total = items.reduce((sum, item) => sum + item.max_points, 0);
  return { kind: 'items', items, earned, total, summary: summarize(items), memory };
}

/** `18 of 20 tests passed (1 failed, 1 skipped).` */
function summarize(items: EvaluationItem[]): string {
  const count = (outcome: ItemOutcome) => items.filter((item) => item.outcome === outcome).length;
  const others = (['failed', 'error', 'skipped', 'time_limit'] as const)
    .map((outcome) => [count(outcome), outcome.replace('_', ' ')] as const)
    .filter(([n]) => n > 0)
    .map(([n, label]) => `${n} ${label}`);
  const head = `${count('passed')} of ${items.length} tests passed`;
  return others.length > 0 ? `${head} (${others.join(', ')}).` : `${head}.`;
}

/** The test case's points for `earned` of `total` shares: exact when they match, else scaled down. */
export function scaledPoints(points: number, earned: number, total: number): number {
  if (total <= 0) return 0;
  if (earned >= total) return points;
  return Math.floor((points * earned) / total);
}
