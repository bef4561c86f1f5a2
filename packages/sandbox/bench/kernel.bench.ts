/**
 * `npm run bench:kernel`: what a notebook kernel costs.
 * 1. Time from startKernel to the first result, for `1+1` and for a cell that imports numpy, pandas and
 *    matplotlib and draws the first figure (p50 and worst of BENCH_RUNS, default 5).
 * 2. Memory of an idle kernel after those imports, from the host's /proc: RSS of the Python process,
 *    RSS of the whole tree (bwrap, launcher, Python) and its PSS (shared library pages split fairly).
 * 3. How many such kernels fit: MemAvailable / tree RSS, checked by starting BENCH_KERNELS (default 20)
 *    at once and reading their total RSS and the drop in MemAvailable.
 * `measureKernels` is exported for other benches; run directly, this file prints a table.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startKernel, type Kernel, type KernelResult } from '../src/index.ts';
import { listProcessTree } from '../src/proc.ts';

export const SIMPLE_CELL = '1+1';
export const DATA_CELL =
  'import numpy as np, pandas as pd, matplotlib.pyplot as plt\n' +
  'df = pd.DataFrame({"x": np.arange(10), "y": np.arange(10) ** 2})\n' +
  'plt.plot(df.x, df.y);';

export interface KernelMeasurements {
  runs: number;
  /** startKernel → result of SIMPLE_CELL. */
  firstResultMs: { p50: number; max: number };
  /** startKernel → result of DATA_CELL (its first figure). */
  firstFigureMs: { p50: number; max: number };
  /** One idle kernel after DATA_CELL. */
  idle: { pythonRssKb: number; treeRssKb: number; treePssKb: number };
  memAvailableKb: number;
  /** MemAvailable / tree RSS. */
  estimatedFit: number;
  /** BENCH_KERNELS kernels started at once, each after DATA_CELL. */
  concurrent: { kernels: number; startedMs: number; totalRssKb: number; memAvailableDropKb: number };
}

export interface MeasureOptions {
  runs?: number;
  kernels?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/** Measures everything the file header lists. Starts and shuts down every kernel it uses. */
export async function measureKernels(options: MeasureOptions = {}): Promise<KernelMeasurements> {
  const runs = options.runs ?? 5;
  const count = options.kernels ?? 20;
  const log = options.log ?? (() => {});
  const simple: number[] = [];
  const figure: number[] = [];
  for (let i = 0; i < runs; i++) {
    simple.push(await timeToResult(SIMPLE_CELL));
    figure.push(await timeToResult(DATA_CELL));
    log(
      `run ${i + 1}/${runs}: 1+1 ${simple.at(-1)!.toFixed(0)} ms, first figure ${figure.at(-1)!.toFixed(0)} ms`,
    );
  }

  const idle = await withKernel(async (kernel) => {
    await check(kernel, DATA_CELL);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      pythonRssKb: (await kernel.memoryKb()) ?? 0,
      treeRssKb: await treeMemory(kernel.pid, 'VmRSS'),
      treePssKb: await treeMemory(kernel.pid, 'Pss'),
    };
  });
  const memAvailableKb = await memAvailable();
  log(`idle kernel: python RSS ${idle.pythonRssKb} KiB, tree RSS ${idle.treeRssKb} KiB`);

  const before = await memAvailable();
  const started = performance.now();
  const kernels = await Promise.all(Array.from({ length: count }, () => startKernel()));
  try {
    await Promise.all(kernels.map((kernel) => check(kernel, DATA_CELL)));
    const startedMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sizes = await Promise.all(kernels.map((kernel) => treeMemory(kernel.pid, 'VmRSS')));
    const concurrent = {
      kernels: count,
      startedMs,
      totalRssKb: sizes.reduce((sum, kb) => sum + kb, 0),
      memAvailableDropKb: before - (await memAvailable()),
    };
    return {
      runs,
      firstResultMs: summary(simple),
      firstFigureMs: summary(figure),
      idle,
      memAvailableKb,
      estimatedFit: Math.floor(memAvailableKb / Math.max(idle.treeRssKb, 1)),
      concurrent,
    };
  } finally {
    await Promise.all(kernels.map((kernel) => kernel.shutdown()));
  }
}

async function withKernel<T>(task: (kernel: Kernel) => Promise<T>): Promise<T> {
  const kernel = await startKernel();
  try {
    return await task(kernel);
  } finally {
    await kernel.shutdown();
  }
}

async function timeToResult(code: string): Promise<number> {
  const started = performance.now();
  return withKernel(async (kernel) => {
    await check(kernel, code);
    return performance.now() - started;
  });
}

async function check(kernel: Kernel, code: string): Promise<KernelResult> {
  const result = await kernel.execute(code, { timeoutMs: 120_000 });
  if (result.status !== 'ok') {
    const error = result.outputs.find((output) => output.output_type === 'error');
    throw new Error(`${JSON.stringify(code)} failed (${result.status}): ${error ? error.evalue : ''}`);
  }
  if (code === DATA_CELL && !result.outputs.some((o) => o.output_type === 'display_data')) {
    throw new Error('the data cell drew no figure');
  }
  return result;
}

function summary(values: number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}

/** Sum of a /proc/<pid>/status (VmRSS) or smaps_rollup (Pss) field over the kernel's tree, in KiB. */
async function treeMemory(pid: number, field: 'VmRSS' | 'Pss'): Promise<number> {
  const file = field === 'Pss' ? 'smaps_rollup' : 'status';
  let total = 0;
  for (const entry of await listProcessTree(pid)) {
    const text = await readFile(`/proc/${entry.pid}/${file}`, 'utf8').catch(() => '');
    total += Number(new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  }
  return total;
}

async function memAvailable(): Promise<number> {
  const text = await readFile('/proc/meminfo', 'utf8');
  return Number(/^MemAvailable:\s*(\d+) kB/m.exec(text)?.[1] ?? 0);
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const kernels = Number(process.env.BENCH_KERNELS ?? 20);
  print(`kernel bench: ${runs} runs, ${kernels} kernels at once`);
  const m = await measureKernels({ runs, kernels, log: (line) => print(`  ${line}`) });
  print('| what | value |');
  print('| --- | ---: |');
  print(
    `| startKernel → result of \`1+1\`, p50 (max) | ${m.firstResultMs.p50.toFixed(0)} ms (${m.firstResultMs.max.toFixed(0)}) |`,
  );
  print(
    `| startKernel → first figure (numpy+pandas+matplotlib), p50 (max) | ${m.firstFigureMs.p50.toFixed(0)} ms (${m.firstFigureMs.max.toFixed(0)}) |`,
  );
  print(`| idle kernel after those imports: Python RSS | ${mib(m.idle.pythonRssKb)} |`);
  print(`| idle kernel: whole tree RSS (PSS) | ${mib(m.idle.treeRssKb)} (${mib(m.idle.treePssKb)}) |`);
  print(`| MemAvailable / tree RSS | ${m.estimatedFit} kernels (of ${mib(m.memAvailableKb)}) |`);
  print(
    `| ${m.concurrent.kernels} kernels at once: all started and imported | ${(m.concurrent.startedMs / 1000).toFixed(1)} s |`,
  );
  print(`| ${m.concurrent.kernels} kernels: total tree RSS | ${mib(m.concurrent.totalRssKb)} |`);
  print(
    `| ${m.concurrent.kernels} kernels: drop in MemAvailable | ${mib(m.concurrent.memAvailableDropKb)} |`,
  );
}
