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

const Record = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready') }),
  z.object({
    t: z.literal('error'),
    message: z.string(),
    reason: z.enum(['time_limit', 'memory_limit', 'ended']).nullish(),
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
  | { kind: 'broken'; message: string };

/**
 * The items of a finished run (the harness reported `done`), or why the test file could not run its
 * tests. Each test's outcome is the harness's: it held each one to its own limits.
 */
export function pytestVerdict(report: HarnessReport, testFile: string): PytestVerdict {
  if (report.errors.length > 0) {
    return { kind: 'broken', message: storedText(report.errors.join('\n\n'), MESSAGE_CHARS) };
  }
  if (!report.collected || report.collected.length === 0) {
    return { kind: 'broken', message: `No tests were collected from ${testFile}.` };
  }
  if (report.collected.length > MAX_ITEMS) {
    return { kind: 'broken', message: `${testFile} has more than ${MAX_ITEMS} tests.` };
  }
  const badMarker = report.collected.find((c) => c.points < 0 || c.points > 1000);
  if (badMarker) {
    return {
      kind: 'broken',
      message: `${shortName(badMarker.id, testFile)}: @points(n) takes a whole number from 0 to 1000.`,
    };
  }
  const badLimit = report.collected.find((c) => c.limit < 1);
  if (badLimit) {
    return {
      kind: 'broken',
      message:
        `${shortName(badLimit.id, testFile)}: @time_limit(ms) takes a whole number of milliseconds from ` +
        '1 to 60000 (@pytest.mark.timeout(s): seconds up to 60).',
    };
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
