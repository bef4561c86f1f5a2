import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/* CPU time from /proc, for benches that say what each process spent per request. */

/** CPU time (user + system) in ms of each process, from /proc (clock ticks of 10 ms). */
export async function cpuByPid(pids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 12) out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return out;
}

/** Clock ticks of every core together since boot: busy (all but idle and iowait) and in all. */
export function boxTicks(): { busy: number; all: number } {
  // cpu  user nice system idle iowait irq softirq steal …
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const at = (i: number) => f[i] ?? 0;
  return {
    busy: at(1) + at(2) + at(3) + at(6) + at(7) + at(8),
    all: at(1) + at(2) + at(3) + at(4) + at(5) + at(6) + at(7) + at(8),
  };
}

export interface CpuSnapshot {
  api: Map<number, number>;
  postgres: Map<number, number>;
  bench: number;
  /** Busy time of every core of the box together. */
  box: number;
}

/**
 * The CPU spent so far by the API's processes (tsx and the node it starts), by each PostgreSQL process
 * (backends come and go with the pool, so they are counted one by one), by this process, and by the box.
 */
export async function snapshotCpu(apiRoot: number): Promise<CpuSnapshot> {
  const { listProcessTree } = await import('../packages/sandbox/src/proc.ts');
  const api = (await listProcessTree(apiRoot)).map((p) => p.pid);
  const postgres = (await listProcessTree(1)).filter((p) => p.command === 'postgres').map((p) => p.pid);
  const own = process.cpuUsage();
  return {
    api: await cpuByPid(api),
    postgres: await cpuByPid(postgres),
    bench: (own.user + own.system) / 1000,
    box: boxTicks().busy * 10,
  };
}

/** CPU spent between two snapshots; a process that appeared in between counts from zero. */
export function cpuBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
): Record<'api' | 'postgres' | 'bench' | 'box', number> {
  const grown = (a: Map<number, number>, b: Map<number, number>) =>
    [...b].reduce((sum, [pid, ms]) => sum + ms - (a.get(pid) ?? 0), 0);
  return {
    api: grown(before.api, after.api),
    postgres: grown(before.postgres, after.postgres),
    bench: after.bench - before.bench,
    box: after.box - before.box,
  };
}

/**
 * CPU per request, in ms. `served` is what the bench's own processes spent — the server under test, every
 * PostgreSQL process and this process (the load generator) — and is what the verdicts use: unlike
 * latency and requests per second it hardly moves when other work shares the box, because the work a
 * request needs stays the same whoever else is running. `box` is every core's busy time (other work
 * included), printed for information.
 */
export interface CpuPerRequest {
  api: number;
  postgres: number;
  bench: number;
  served: number;
  box: number;
}

export function cpuPerRequest(used: ReturnType<typeof cpuBetween>, requests: number): CpuPerRequest {
  const per = (x: number) => x / Math.max(1, requests);
  return {
    api: per(used.api),
    postgres: per(used.postgres),
    bench: per(used.bench),
    served: per(used.api + used.postgres + used.bench),
    box: per(used.box),
  };
}

/** The same, for printing: `API 0.31, PostgreSQL 0.40, load generator 0.06 = 0.77 ms (whole box 0.81)`. */
export function cpuLine(cpu: CpuPerRequest, digits = 2): string {
  const f = (x: number) => x.toFixed(digits);
  return (
    `API ${f(cpu.api)}, PostgreSQL ${f(cpu.postgres)}, load generator ${f(cpu.bench)} = ` +
    `${f(cpu.served)} ms (whole box, other work included: ${f(cpu.box)})`
  );
}
