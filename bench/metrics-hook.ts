// What counting one answer costs the API (issue 41: metrics may cost bench:api's course list at most 3 %
// CPU per request): lib/metrics.ts's request counter called in a loop, over five routes and statuses as a
// server sees them, CPU per call as the median of 9 runs of 500,000. bench:api measures the whole API
// process with and without metrics; on a busy box its rounds vary by ±10 %, far more than this costs
// (docs/operations.md, "Overhead"). Run: npx tsx bench/metrics-hook.ts
import { createMetricsRegistry } from '@kadai/grader/metrics';
import { requestCounter } from '../apps/api/src/lib/metrics.ts';

const count = requestCounter(createMetricsRegistry());
const calls: [string, string, number, number][] = [
  ['GET', '/api/Course/', 200, 0.0032],
  ['GET', '/api/Course/:id/', 200, 0.0041],
  ['GET', '/api/Auth/UserInfo/', 200, 0.0012],
  ['POST', '/api/Submission/Submit/', 201, 0.021],
  ['GET', '(unmatched)', 404, 0.0004],
];

function run(n: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const [method, route, status, seconds] = calls[i % calls.length]!;
    count(method, route, status, seconds);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

run(200_000);
const runs = Array.from({ length: 9 }, () => run(500_000)).sort((a, b) => a - b);
console.log(
  `counting one answer: ${runs[4]!.toFixed(2)} µs of CPU (median of 9 runs; ${runs[0]!.toFixed(2)}–${runs[8]!.toFixed(2)})`,
);
