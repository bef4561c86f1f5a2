// `npm run bench:video-stats`: lecture videos and workbooks (issue: "1,000 students reporting intervals
// every 10 s for one video; p95 write latency and the stats table time for 1,000 students × 50 videos;
// how many workbook kernels fit in memory and the time from open to first cell result").
//
// The API runs in its own process (bench/video-stats-server.ts), on a fresh database of the PostgreSQL server at BENCH_PG_URL as bench:forum
// does (embedded PGlite when that server does not answer, or with BENCH_TARGETS=pglite). It seeds in
// bulk SQL, in one transaction: one course, BENCH_STUDENTS (1,000) students and an editor, each with a
// session and an access token, BENCH_VIDEOS (50) videos of 10–60 minutes, and about 30,000 video_stats
// rows (each student has watched some of the first 49 videos: finished, or parts with seeks), then
// VACUUM ANALYZE. From this process, one after the other:
// 1. Writes at the start of a lecture: every student reports the newest video every 10 s, the first
//    report at a random moment of the first 10 s, for BENCH_SECONDS (60) s — about 100 writes/s, an
//    open loop (each report fires on its own timer, as a player's does, whether or not the previous one
//    has been answered). Each report carries the next 10 s of that student's playback. Prints count,
//    errors, req/s, p50/p95/p99/max, how late the load generator fired (it shares the two cores), the
//    CPU each process spent per write, in how many seconds the box was saturated (by whoever) and p95 of
//    the writes sent in the other seconds, and whether every student's total came out right. Before
//    the clock, a warm-up by the editor ends with 50 writes one at a time: the cost of a write alone.
// 2. The table, as its editor, one request at a time after the writes: the first page of 100 sorted by
//    name and by -completed, and the CSV of every student × video, BENCH_TABLE_RUNS (20) times each
//    after 2 warm-up requests, with the CPU each request cost (API, PostgreSQL, this process).
// 3. Workbook kernels, after the API has stopped: packages/sandbox/bench/kernel.bench.ts's
//    measureKernels (open → first result of `1+1` and of a numpy/pandas/matplotlib plot, memory per
//    kernel, how many fit in MemAvailable, BENCH_KERNELS (20) started at once).
// Prints a summary with the verdict. Budgets on PostgreSQL, in CPU per request of the API, PostgreSQL
// and this process (the load generator) together (issue 22 §3: latency on this shared box moves 2× with
// the hour, the work a request needs does not): a write ≤ CPU_BUDGET_MS.write, a table page ≤
// CPU_BUDGET_MS.page, the CSV ≤ CPU_BUDGET_MS.csv; exits 1 when one is over, when a write failed or a
// student's total came out wrong, or when PostgreSQL was asked for and did not answer. p95 against the
// issue's latency targets (< 50 ms for writes, < 500 ms for the table) and the kernels are information.
import os from 'node:os';
import pg from 'pg';
import { VideoTable } from '@kadai/contracts';
import { cpuBetween, cpuPerRequest, snapshotCpu, type CpuPerRequest } from './cpu.ts';
import { createBenchDatabase, startBenchServer, stopProcess } from './processes.ts';
import { percentile } from './stats.ts';
import { agent, send, type Answer } from './http-client.ts';
import {
  isReady,
  REPORT_EVERY_SECONDS,
  SATURATED,
  unsaturated,
  warmUp,
  writeLoad,
  type Ready,
  type WriteFigures,
} from './video-stats-load.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TABLE_RUNS = Number(process.env.BENCH_TABLE_RUNS ?? 20);
const KERNELS = Number(process.env.BENCH_KERNELS ?? 20);
const KERNEL_RUNS = Number(process.env.BENCH_KERNEL_RUNS ?? 5);
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres').split(',').map((s) => s.trim());
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITE_P95_MS = 50;
const TABLE_P95_MS = 500;
const TABLE_PAGE = 100;
/**
 * Budgets in ms of CPU per request (API + PostgreSQL + load generator), about a third above what each
 * cost on 2026-11-27 (3.2, 33 and 106 ms, load 1.1): room for run-to-run noise, while a change that
 * makes a request a third dearer fails. The table's figures are over 20 requests one at a time, so
 * /proc's 10 ms ticks and the snapshots' own reading of /proc weigh more there than in the writes.
 */
const CPU_BUDGET_MS = { write: 4.3, page: 44, csv: 140 };

interface TableFigures {
  name: string;
  budget: number;
  times: number[];
  cpu: CpuPerRequest;
  bytes: number;
  check: string;
}

async function timeTable(
  ready: Ready,
  apiPid: number,
  name: string,
  budget: number,
  url: string,
  check: (body: string) => string,
): Promise<TableFigures> {
  const times: number[] = [];
  let last: Answer | null = null;
  let before = await snapshotCpu(apiPid);
  for (let run = 0; run < TABLE_RUNS + 2; run++) {
    if (run === 2) before = await snapshotCpu(apiPid); // after the 2 warm-up requests
    const answer = await send(ready.port, 'GET', url, ready.editorToken);
    if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${answer.body.slice(0, 300)}`);
    if (run >= 2) times.push(answer.ms);
    last = answer;
  }
  const cpu = cpuPerRequest(cpuBetween(before, await snapshotCpu(apiPid)), times.length);
  return { name, budget, times, cpu, bytes: Buffer.byteLength(last!.body), check: check(last!.body) };
}

function checkPage(body: string): string {
  const table = VideoTable.parse(JSON.parse(body));
  const cells = table.results.reduce((sum, row) => sum + row.cells.filter((c) => c !== null).length, 0);
  if (table.count !== STUDENTS || table.videos.length !== VIDEOS || table.results.length !== TABLE_PAGE) {
    throw new Error(
      `table: ${table.count} students, ${table.videos.length} videos, ${table.results.length} rows`,
    );
  }
  return `${table.results.length} of ${table.count} students × ${table.videos.length} videos, ${cells} cells`;
}

function checkCsv(body: string): string {
  const lines = body.trimEnd().split('\r\n');
  const columns = lines[0]!.split(',').length;
  if (lines.length !== STUDENTS + 1) throw new Error(`CSV: ${lines.length - 1} students`);
  return `${lines.length - 1} students, ${columns} columns`;
}

async function describeMachine(databaseUrl: string | null): Promise<string> {
  let database = 'PGlite (embedded)';
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ v: string; sc: string }>(
      `SELECT current_setting('server_version') AS v, current_setting('synchronous_commit') AS sc`,
    );
    await client.end();
    database = `PostgreSQL ${rows[0]!.v} (synchronous_commit ${rows[0]!.sc})`;
  }
  const cpus = os.cpus();
  return (
    `${cpus.length} cores (${cpus[0]?.model.trim() ?? '?'}), Node ${process.version}, ${database}, ` +
    `load ${os.loadavg()[0]!.toFixed(1)}`
  );
}

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '—');
const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;

/** Runs the bench; whether it failed (see the header). */
async function drive(): Promise<boolean> {
  const benchStarted = performance.now();
  const database = TARGETS.includes('postgres')
    ? await createBenchDatabase(pgServer, 'kadai_bench_video_stats')
    : null;
  if (TARGETS.includes('postgres') && !database) console.log('Falling back to the embedded PGlite.');
  const target = database ? 'PostgreSQL' : 'PGlite';
  const pgMissing = TARGETS.includes('postgres') && !database;
  console.log(`Machine: ${await describeMachine(database?.url ?? null)}.`);
  console.log(
    `${STUDENTS.toLocaleString('en-US')} students × ${VIDEOS} videos; writes: every student reports ` +
      `${REPORT_EVERY_SECONDS} s of the newest video every ${REPORT_EVERY_SECONDS} s for ${SECONDS} s ` +
      `(open loop, ~${Math.round(STUDENTS / REPORT_EVERY_SECONDS)} writes/s); the load generator runs on ` +
      `the same cores as the API and the database.\n`,
  );

  let writes: WriteFigures | undefined;
  let writeAlone: number[] | undefined;
  const tables: TableFigures[] = [];
  try {
    const serverStarted = performance.now();
    const server = await startBenchServer(
      'video-stats-server.ts',
      {
        BENCH_STUDENTS: String(STUDENTS),
        BENCH_VIDEOS: String(VIDEOS),
        DATABASE_URL: database?.url ?? '',
      },
      isReady,
    );
    const ready = server.ready;
    const s = ready.seeded;
    console.log(
      `${target}: seeded ${s.students.toLocaleString('en-US')} students, ${s.videos} videos of ` +
        `${s.shortestVideo}–${s.longestVideo} s and ${s.statRows.toLocaleString('en-US')} video_stats rows ` +
        `in ${s.seconds.toFixed(1)} s (server ready after ` +
        `${((performance.now() - serverStarted) / 1000).toFixed(1)} s)`,
    );
    try {
      writeAlone = await warmUp(ready);
      console.log(
        `one write alone (${writeAlone.length} in a row, nothing else in flight): p50 ` +
          `${ms(percentile(writeAlone, 50))} / p95 ${ms(percentile(writeAlone, 95))}`,
      );
      writes = await writeLoad(ready, server.child.pid!, SECONDS);
      const w = writes;
      console.log(
        `writes: ${w.latencies.length.toLocaleString('en-US')} answered 2xx (${w.created} first reports), ` +
          `${w.errors.length} errors, in ${w.wallSeconds.toFixed(1)} s = ` +
          `${((w.latencies.length + w.errors.length) / w.wallSeconds).toFixed(0)} req/s; latency p50 ` +
          `${ms(percentile(w.latencies, 50))} / p95 ${ms(percentile(w.latencies, 95))} / p99 ` +
          `${ms(percentile(w.latencies, 99))} / max ${ms(Math.max(...w.latencies))}`,
      );
      console.log(
        `  load generator fired late by p99 ${ms(percentile(w.lateness, 99))} / max ` +
          `${ms(Math.max(...w.lateness))}; CPU per write: API ${ms(w.cpuPerWrite.api)}, PostgreSQL ` +
          `${ms(w.cpuPerWrite.postgres)}, load generator ${ms(w.cpuPerWrite.bench)}, whole box ` +
          `${ms(w.cpuPerWrite.box)} (of ${ms((2000 * w.wallSeconds) / Math.max(1, w.latencies.length))} ` +
          `that two cores have; other work on the box ` +
          `${ms(w.cpuPerWrite.box - w.cpuPerWrite.api - w.cpuPerWrite.postgres - w.cpuPerWrite.bench)}); ` +
          `load after ${os.loadavg()[0]!.toFixed(1)}; students with a ` +
          `wrong total: ${w.wrongTotals}`,
      );
      const spare = unsaturated(w);
      console.log(
        `  the box (both cores, every process) was ≥ ${SATURATED * 100} % busy in ${spare.saturated} of ` +
          `${spare.seconds} s; the ${spare.latencies.length.toLocaleString('en-US')} writes sent in the ` +
          `other seconds: p50 ${ms(percentile(spare.latencies, 50))} / p95 ` +
          `${ms(percentile(spare.latencies, 95))} / p99 ${ms(percentile(spare.latencies, 99))}`,
      );
      for (const e of w.errors.slice(0, 5)) console.log(`  error: ${e}`);

      const base = `/api/video-stats/course/${ready.courseId}/`;
      const pid = server.child.pid!;
      const page = CPU_BUDGET_MS.page;
      tables.push(
        await timeTable(ready, pid, 'table page 1, by name', page, `${base}?limit=${TABLE_PAGE}`, checkPage),
        await timeTable(
          ready,
          pid,
          'table page 1, by -completed',
          page,
          `${base}?limit=${TABLE_PAGE}&ordering=-completed`,
          checkPage,
        ),
        await timeTable(ready, pid, 'CSV, every student × video', CPU_BUDGET_MS.csv, `${base}csv/`, checkCsv),
      );
      for (const t of tables) {
        console.log(
          `${t.name}: p50 ${ms(percentile(t.times, 50))} / p95 ${ms(percentile(t.times, 95))} / max ` +
            `${ms(Math.max(...t.times))} over ${t.times.length} runs; ${(t.bytes / 1024).toFixed(0)} KiB ` +
            `(${t.check}); CPU per request: API ${ms(t.cpu.api)}, PostgreSQL ${ms(t.cpu.postgres)}, load ` +
            `generator ${ms(t.cpu.bench)} = ${ms(t.cpu.served)} (whole box ${ms(t.cpu.box)})`,
        );
      }
    } finally {
      await stopProcess(server.child);
    }
  } finally {
    await database?.drop();
    agent.destroy();
  }

  console.log(`\nWorkbook kernels (measureKernels: ${KERNEL_RUNS} runs, ${KERNELS} kernels at once) …`);
  const { measureKernels } = await import('../packages/sandbox/bench/kernel.bench.ts');
  const kernels = await measureKernels({
    runs: KERNEL_RUNS,
    kernels: KERNELS,
    log: (line) => console.log(`  ${line}`),
  }).catch((error: unknown) => {
    console.log(`  kernels not measured: ${String(error)}`);
    return null;
  });
  if (kernels) {
    const k = kernels;
    console.log(
      `  open → result of \`1+1\`: p50 ${ms(k.firstResultMs.p50)} (max ${ms(k.firstResultMs.max)}); open → ` +
        `first figure (numpy + pandas + matplotlib): p50 ${ms(k.firstFigureMs.p50)} (max ` +
        `${ms(k.firstFigureMs.max)})`,
    );
    console.log(
      `  idle kernel after those imports: Python RSS ${mib(k.idle.pythonRssKb)}, whole tree RSS ` +
        `${mib(k.idle.treeRssKb)} (PSS ${mib(k.idle.treePssKb)}); MemAvailable ${mib(k.memAvailableKb)} / ` +
        `tree RSS = ${k.estimatedFit} kernels`,
    );
    console.log(
      `  ${k.concurrent.kernels} kernels started at once: all imported in ` +
        `${(k.concurrent.startedMs / 1000).toFixed(1)} s, total tree RSS ${mib(k.concurrent.totalRssKb)}, ` +
        `MemAvailable fell by ${mib(k.concurrent.memAvailableDropKb)}`,
    );
  }

  // PGlite runs inside the API's process: its CPU is not comparable with the PostgreSQL budgets.
  const cpuVerdict = (value: number, budget: number) =>
    target !== 'PostgreSQL' ? 'information' : value <= budget ? 'PASS' : 'OVER';
  /** p95 against the latency target, printed beside the verdict. */
  const latency = (value: number, limit: number) =>
    `information (${Number.isFinite(value) && value < limit ? 'under' : 'over'} target)`;
  const summary: { figure: string; measured: string; target: string; verdict: string }[] = [];
  if (writes) {
    const p95 = percentile(writes.latencies, 95);
    const spare = unsaturated(writes);
    const w = writes.cpuPerWrite;
    const served = w.api + w.postgres + w.bench;
    summary.push(
      {
        figure: `write CPU per request, API + PostgreSQL + load generator (${target})`,
        measured: `${ms(served)} (whole box ${ms(w.box)})`,
        target: `≤ ${CPU_BUDGET_MS.write} ms`,
        verdict: cpuVerdict(served, CPU_BUDGET_MS.write),
      },
      {
        figure: `write p95 (${target})`,
        measured: ms(p95),
        target: `< ${WRITE_P95_MS} ms`,
        verdict: latency(p95, WRITE_P95_MS),
      },
      {
        figure: 'write p95, seconds the box was not saturated',
        measured: `${ms(percentile(spare.latencies, 95))} (${spare.saturated} of ${spare.seconds} s saturated)`,
        target: '—',
        verdict: 'information',
      },
      {
        figure: 'one write alone, p50',
        measured: ms(percentile(writeAlone ?? [], 50)),
        target: '—',
        verdict: 'information',
      },
      {
        figure: 'write errors / wrong totals',
        measured: `${writes.errors.length} / ${writes.wrongTotals}`,
        target: '0 / 0',
        verdict: writes.errors.length === 0 && writes.wrongTotals === 0 ? 'PASS' : 'MISS',
      },
    );
  }
  for (const t of tables) {
    const p95 = percentile(t.times, 95);
    summary.push(
      {
        figure: `${t.name}, CPU per request`,
        measured: `${ms(t.cpu.served)} (whole box ${ms(t.cpu.box)})`,
        target: `≤ ${t.budget} ms`,
        verdict: cpuVerdict(t.cpu.served, t.budget),
      },
      {
        figure: `${t.name} p95`,
        measured: ms(p95),
        target: `< ${TABLE_P95_MS} ms`,
        verdict: latency(p95, TABLE_P95_MS),
      },
    );
  }
  if (kernels) {
    summary.push(
      {
        figure: 'kernel open → `1+1` result, p50',
        measured: ms(kernels.firstResultMs.p50),
        target: '—',
        verdict: 'information',
      },
      {
        figure: 'kernel open → first plot, p50',
        measured: ms(kernels.firstFigureMs.p50),
        target: '—',
        verdict: 'information',
      },
      {
        figure: 'kernels that fit in MemAvailable',
        measured: `${kernels.estimatedFit} × ${mib(kernels.idle.treeRssKb)}`,
        target: '—',
        verdict: 'information',
      },
    );
  }
  console.log('');
  console.table(summary);
  console.log(`bench took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
  return pgMissing || !writes || summary.some((s) => s.verdict === 'OVER' || s.verdict === 'MISS');
}

process.exit((await drive()) ? 1 : 0);
