// `npm run bench:similarity`: one similarity report (docs/similarity.md) over BENCH_SUBMISSIONS (300)
// generated Python submissions of about 80 lines each (bench/similarity-corpus.ts), the starter code as
// boilerplate, exactly as the background job computes it. Prints the CPU seconds the report took (user +
// system of this process), the pairs it found and kept, and the peak memory (resident set of the whole
// process, tsx included); BENCH_RUNS (3) reports, the median and the worst counted. Budgets (issue 39):
// ≤ CPU_BUDGET_S CPU seconds and ≤ MEMORY_BUDGET_MB per report; exits 1 when missed.
import { compareSubmissions } from '@kadai/grader/similarity';
import { STARTER, generateSubmissions } from './similarity-corpus.ts';
import { percentile } from './stats.ts';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CPU_BUDGET_S = 20;
const MEMORY_BUDGET_MB = 500;

const texts = generateSubmissions(SUBMISSIONS);
const lines = texts.reduce((sum, t) => sum + t.split('\n').length, 0) / texts.length;
const input = {
  submissions: texts.map((content, n) => ({ submission_id: n + 1, user_id: n + 1, course_id: 1, content })),
  boilerplate: [STARTER],
};
console.log(`${SUBMISSIONS} submissions, ${lines.toFixed(1)} lines each on average, ${RUNS} reports`);

const cpuSeconds: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const before = process.cpuUsage();
  const started = performance.now();
  const result = compareSubmissions(input);
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1e6;
  cpuSeconds.push(cpu);
  const wall = (performance.now() - started) / 1000;
  const top = result.pairs[0];
  console.log(
    `report ${run + 1}: ${cpu.toFixed(2)} s CPU, ${wall.toFixed(2)} s wall; ${result.pair_count} pairs above 0, ` +
      `${result.pairs.length} kept, top ${top ? top.similarity.toFixed(3) : '-'}, ` +
      `${result.pairs.filter((p) => p.similarity >= 0.5).length} at or above 0.5`,
  );
}
// maxRSS is in kilobytes: the peak of the whole process over every run.
const peakMb = process.resourceUsage().maxRSS / 1024;
const median = percentile(cpuSeconds, 50);
const worst = Math.max(...cpuSeconds);
console.log(
  `CPU per report: median ${median.toFixed(2)} s, worst ${worst.toFixed(2)} s (budget ${CPU_BUDGET_S} s); ` +
    `peak memory ${peakMb.toFixed(0)} MB (budget ${MEMORY_BUDGET_MB} MB)`,
);
if (worst > CPU_BUDGET_S || peakMb > MEMORY_BUDGET_MB) {
  console.error('over budget');
  process.exit(1);
}
