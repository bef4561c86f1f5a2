/**
 * Turns what the pytest harness reported on its result channel (see pytest-harness.ts) into one
 * evaluation with an item per collected test. Everything on the channel is untrusted — the student's
 * code runs in the harness's process — so every line is validated, every text capped, and only
 * collected tests are scored. The last record of a kind wins (the harness writes after the student's
 * code it reports on), and nothing after `done` counts.
 */
import { z } from 'zod';
import { storedText } from './stored-text.ts';
import type { SandboxResult } from './types.ts';

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
  z.object({ t: z.literal('error'), message: z.string() }),
  z.object({
    t: z.literal('collected'),
    items: z.array(z.object({ id: z.string().max(1000), points: z.number().int() })).max(MAX_ITEMS + 1),
  }),
  z.object({
    t: z.literal('result'),
    id: z.string().max(1000),
    outcome: z.enum(['passed', 'failed', 'error', 'skipped']),
    message: z.string(),
    output: z.string(),
  }),
  z.object({ t: z.literal('done'), exit: z.number().int(), stopped: z.boolean() }),
]);
type ChannelRecord = z.infer<typeof Record>;

export interface HarnessReport {
  ready: boolean;
  errors: string[];
  collected: { id: string; points: number }[] | null;
  results: Map<string, { outcome: Exclude<ItemOutcome, 'time_limit'>; message: string; output: string }>;
  done: { exit: number; stopped: boolean } | null;
}

/** Reads the channel's JSON lines; a line that is not a valid record is ignored. */
export function readChannel(bytes: Uint8Array | undefined): HarnessReport {
  const report: HarnessReport = { ready: false, errors: [], collected: null, results: new Map(), done: null };
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
        break;
      case 'collected':
        report.collected = record.items;
        break;
      case 'result':
        report.results.set(record.id, {
          outcome: record.outcome,
          message: record.message,
          output: record.output,
        });
        break;
      case 'done':
        report.done = { exit: record.exit, stopped: record.stopped };
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
  | { kind: 'items'; items: EvaluationItem[]; earned: number; total: number; summary: string }
  | { kind: 'broken'; message: string };

/**
 * The items of a run, or why the test file could not run its tests. `limit`: the run was killed
 * (time, memory, output): tests without a result are `time_limit` (or `error` for other limits).
 */
export function pytestVerdict(
  report: HarnessReport,
  run: Pick<SandboxResult, 'limit' | 'exitCode' | 'signal' | 'stderr'>,
  testFile: string,
): PytestVerdict {
  const tail = run.stderr.trim().split('\n').slice(-8).join('\n');
  if (report.errors.length > 0) {
    return { kind: 'broken', message: storedText(report.errors.join('\n\n'), MESSAGE_CHARS) };
  }
  if (!report.collected) {
    const why = run.limit
      ? `The run hit its ${run.limit} limit before pytest had collected the tests.`
      : `The test run ended before pytest had collected the tests (${run.signal ?? `exit code ${run.exitCode}`}).`;
    return { kind: 'broken', message: storedText([why, tail].filter(Boolean).join('\n'), MESSAGE_CHARS) };
  }
  if (report.collected.length === 0) {
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

  const cut = run.limit === 'cpu' || run.limit === 'wall' || report.done?.stopped === true;
  let budget = ITEMS_TEXT_CHARS;
  const items = report.collected.map(({ id, points: worth }): EvaluationItem => {
    const result = report.results.get(id);
    const fallback: { outcome: ItemOutcome; message: string } = cut
      ? { outcome: 'time_limit', message: 'The run reached its time limit before this test finished.' }
      : run.limit
        ? { outcome: 'error', message: `The run hit its ${run.limit} limit before this test finished.` }
        : {
            outcome: 'error',
            message:
              `The test process ended before this test finished (${run.signal ?? `exit code ${run.exitCode}`}).\n${tail}`.trim(),
          };
    const outcome = result?.outcome ?? fallback.outcome;
    const share = Math.min(budget, ITEM_TEXT_CHARS);
    const message = storedText(result?.message ?? fallback.message, Math.max(share, SHORT_TEXT_CHARS));
    const output = storedText(result?.output ?? '', Math.max(share - message.length, SHORT_TEXT_CHARS));
    budget = Math.max(0, budget - message.length - output.length);
    return {
      name: storedText(shortName(id, testFile)),
      outcome,
      points: outcome === 'passed' ? worth : 0,
      max_points: worth,
      message,
      output,
    };
  });
  const earned = items.reduce((sum, item) => sum + item.points, 0);
  const total = items.reduce((sum, item) => sum + item.max_points, 0);
  return { kind: 'items', items, earned, total, summary: summarize(items) };
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
