// bench:grading's report of a spike: the figures as a table, then each target of the verdict met or not
// (docs/performance.md, bench:grading). grading.bench.ts measures; this prints and judges.
import os from 'node:os';
import type { referenceReport } from './grading-pytest.ts';
import type { SubmitFigures } from './grading-submits.ts';
import { percentile } from './stats.ts';

export interface SpikeFigures {
  pytest: boolean;
  /** The spike ran beside a CPU hog: every score must still be right. */
  hog: boolean;
  budget: { runsPerSecond: number; cpuPerRunMs: number };
  submissions: number;
  /** Seconds from the first submit to the last score (or the end of draining). */
  elapsed: number;
  /** Why draining ended. */
  drainEnd: string;
  /** Submit → score of each graded submission, ms, ascending. */
  latencies: number[];
  wrongScores: number;
  evaluations: number;
  /** Submissions by status, as text. */
  statuses: string;
  submitErrors: string[];
  sandboxRuns: number;
  testRuns: number;
  /** Wall time inside the sandbox, all runs, ms. */
  sandboxMs: number;
  slots: number;
  graderQueries: number;
  graderQueryMs: number;
  /** Children CPU (the sandboxes) over the spike, ms. */
  sandboxCpuMs: number;
  testCpuMs: number[];
  checkCpuMs: number[];
  /** This process's own CPU over the spike, ms. */
  benchCpuMs: number;
  reference: ReturnType<typeof referenceReport>;
  /** The submits over HTTP (bench/grading-submits.ts): their line and the duplicates made. */
  submits: { lines: string[]; duplicates: number; figures: SubmitFigures };
}

/** Prints the spike's table and its verdict; the targets missed (none: the bench passes). */
export function printSpikeReport({
  pytest,
  hog,
  budget,
  submissions,
  elapsed,
  drainEnd,
  latencies,
  wrongScores,
  evaluations,
  statuses,
  submitErrors,
  sandboxRuns,
  testRuns,
  sandboxMs,
  slots,
  graderQueries,
  graderQueryMs,
  sandboxCpuMs,
  testCpuMs,
  checkCpuMs,
  benchCpuMs,
  reference,
  submits,
}: SpikeFigures): string[] {
  const lost = submissions - latencies.length;
  const runsPerSecond = sandboxRuns / elapsed;
  const p50 = percentile(latencies, 50) / 1000;
  const p99 = percentile(latencies, 99) / 1000;
  /** A median, or "n/a" when there was nothing to measure (a paired run's harness reports no cpuMs). */
  const median = (values: number[]) => (values.length > 0 ? `${percentile(values, 50)} ms` : 'n/a');
  const cpuPerSubmission = sandboxCpuMs / Math.max(1, latencies.length);
  const cpuPerRun = sandboxCpuMs / Math.max(1, sandboxRuns);
  const spikeRatio = cpuPerSubmission / reference.ioCpuMs;
  const load = os.loadavg().map((x) => x.toFixed(2));

  console.log('');
  console.table({
    'sandbox runs/s': {
      value: runsPerSecond.toFixed(1),
      note: `${sandboxRuns} runs (${testRuns} tests + syntax checks)`,
    },
    'test runs/s': { value: (testRuns / elapsed).toFixed(1), note: '' },
    'submissions/s': {
      value: (latencies.length / elapsed).toFixed(2),
      note: `${elapsed.toFixed(1)} s first submit → last score (${drainEnd})`,
    },
    'p50 submit → score': { value: `${p50.toFixed(2)} s`, note: '' },
    'p99 submit → score': {
      value: `${p99.toFixed(2)} s`,
      note: `max ${(latencies.at(-1)! / 1000).toFixed(2)} s`,
    },
    lost: {
      value: String(lost),
      note: statuses,
    },
    'wrong scores': {
      value: String(wrongScores),
      note: `${evaluations} evaluations stored`,
    },
    'sandbox run, mean wall': {
      value: `${(sandboxMs / Math.max(1, sandboxRuns)).toFixed(0)} ms`,
      note: `slots busy ${((100 * sandboxMs) / (elapsed * 1000 * slots)).toFixed(0)} % of the time`,
    },
    'grader SQL': {
      value: `${graderQueries} calls`,
      note: `${(graderQueryMs / Math.max(1, graderQueries)).toFixed(1)} ms mean, ${(graderQueryMs / 1000).toFixed(1)} s in all`,
    },
    'sandbox CPU per run': {
      value: `${cpuPerRun.toFixed(1)} ms`,
      note: 'children CPU over every sandbox run (tests and syntax checks), set-up included',
    },
    'sandbox CPU per submission': {
      value: `${cpuPerSubmission.toFixed(0)} ms`,
      note:
        `${(sandboxCpuMs / 1000).toFixed(1)} s of children CPU; cpuMs median: test ${median(testCpuMs)}, ` +
        `syntax check ${median(checkCpuMs)}; ` +
        `${spikeRatio.toFixed(1)}× the io reference run`,
    },
    'load average (1 min)': {
      value: load[0]!,
      note: `5 and 15 min: ${load[1]}, ${load[2]}; other work on the box moves the latencies, not the CPU`,
    },
    'bench process CPU': {
      value: `${(benchCpuMs / 1000 / elapsed).toFixed(2)} cores`,
      note: 'API side + grader + database (PGlite runs in this process)',
    },
  });
  if (submitErrors.length > 0)
    console.log(`submit errors: ${submitErrors.length}, first: ${submitErrors[0]}`);
  console.log(
    `sandbox CPU per submission: ${cpuPerSubmission.toFixed(0)} ms, ` +
      `${spikeRatio.toFixed(1)}× the io test run of the reference (${reference.ioCpuMs.toFixed(1)} ms)`,
  );
  console.log(
    `p99 submit → score ${p99.toFixed(2)} s (information: the issue's ${pytest ? '120' : '30'} s holds on a quiet ` +
      `box), load average ${load.join(' / ')}`,
  );
  for (const line of submits.lines) console.log(line);
  // Each target: what, the measured value, met.
  const targets: [string, string, boolean][] = [
    ['0 lost', `${lost} (${submitErrors.length} submit errors)`, lost === 0 && submitErrors.length === 0],
    [hog ? '0 scores changed by the CPU hog' : '0 wrong scores', String(wrongScores), wrongScores === 0],
    // A retried submit carries its first try's Idempotency-Key: it never makes a second submission.
    [
      '0 duplicate submissions',
      `${submits.duplicates} (${submits.figures.timedOut} retried after a timeout)`,
      submits.duplicates === 0,
    ],
    // Beside a hog the box has half its CPU or less: capacity is not what is judged then.
    ...(hog
      ? []
      : ([
          [
            `≥ ${budget.runsPerSecond} sandbox runs/s`,
            runsPerSecond.toFixed(1),
            runsPerSecond >= budget.runsPerSecond,
          ],
        ] satisfies [string, string, boolean][])),
    [
      `sandbox CPU ≤ ${budget.cpuPerRunMs} ms per run`,
      `${cpuPerRun.toFixed(1)} ms`,
      cpuPerRun <= budget.cpuPerRunMs,
    ],
    ...reference.targets,
  ];
  for (const [what, measured, met] of targets) console.log(`${met ? '✓' : '✗'} ${what}: ${measured}`);
  const missed = targets.filter(([, , met]) => !met).map(([what]) => what);
  console.log(missed.length === 0 ? 'targets met' : `TARGETS MISSED: ${missed.join(', ')}`);
  return missed;
}
