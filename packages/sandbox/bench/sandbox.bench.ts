/**
 * `npm run bench:sandbox`: trivial programs through runSandboxed at concurrency 1, 2 and 4, against a
 * bare `python3 -I` started the same way (spawn, pipes, empty environment). Target: ≥ 50 runs/s.
 * BENCH_SECONDS (default 5) sets the time per row.
 */
import { spawn } from 'node:child_process';
import { runSandboxed, type SandboxRequest } from '../src/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TARGET = 50;
const PROGRAM = 'print(1)\n';

const print = (line: string) => process.stdout.write(`${line}\n`);

function bare(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', [...args, '-c', PROGRAM], {
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`python3 exited ${code}`))));
  });
}

async function sandboxed(argv: string[], extra: Partial<SandboxRequest> = {}): Promise<void> {
  const result = await runSandboxed({ files: [{ path: 'main.py', content: PROGRAM }], argv, ...extra });
  if (result.exitCode !== 0 || result.stdout !== '1\n')
    throw new Error(`sandboxed run failed: ${result.stderr}`);
}

interface Row {
  runsPerSecond: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `task` from `concurrency` loops for SECONDS (after a short warm-up). */
async function measure(task: () => Promise<void>, concurrency: number): Promise<Row> {
  for (let i = 0; i < 3; i++) await task();
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await task();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    runsPerSecond: latencies.length / elapsed,
    meanMs: latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

const format = (label: string, row: Row) =>
  `| ${label.padEnd(34)} | ${row.runsPerSecond.toFixed(1).padStart(7)} | ${row.meanMs.toFixed(1).padStart(7)} | ${row.p50Ms.toFixed(1).padStart(7)} | ${row.p99Ms.toFixed(1).padStart(7)} |`;

print(`sandbox bench: ${SECONDS} s per row, program ${JSON.stringify(PROGRAM.trim())}`);
print('| what                               |  runs/s | mean ms |  p50 ms |  p99 ms |');
print('| ---------------------------------- | ------: | ------: | ------: | ------: |');
const bareRow = await measure(() => bare(['-I']), 1);
print(format('bare python3 -I, concurrency 1', bareRow));
const bareNoSite = await measure(() => bare(['-I', '-S']), 1);
print(format('bare python3 -I -S, concurrency 1', bareNoSite));
let best = 0;
let first: Row | null = null;
for (const concurrency of [1, 2, 4]) {
  const row = await measure(() => sandboxed(['main.py']), concurrency);
  first ??= row;
  best = Math.max(best, row.runsPerSecond);
  print(format(`sandboxed, concurrency ${concurrency}`, row));
}
print(format('sandboxed with -S, concurrency 2', await measure(() => sandboxed(['-S', 'main.py']), 2)));
const writable = { writable: true };
print(format('writable, concurrency 2', await measure(() => sandboxed(['main.py'], writable), 2)));
const collecting = { writable: true, collect: ['*.txt'] };
print(
  format('writable + collect, concurrency 2', await measure(() => sandboxed(['main.py'], collecting), 2)),
);
const overhead = first!.meanMs - bareRow.meanMs;
print(
  `\nper-run overhead of the sandbox over bare python3 -I: ${overhead.toFixed(1)} ms (concurrency 1, mean)`,
);
print(
  `best throughput ${best.toFixed(1)} runs/s: ${best >= TARGET ? 'meets' : 'MISSES'} the target of ${TARGET}`,
);
if (best < TARGET) process.exitCode = 1;
