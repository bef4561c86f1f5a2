// `npm run bench:overview`: the course home (`GET Course/{id}/overview/`, docs/course-home.md) of a course
// of 1,000 students in the middle of a term (bench/overview-server.ts: 24 assignments with about 30,000
// submissions, 10 quizzes, a forum of 30,000 records, events, workbook sessions). The API runs in its
// own process; autocannon loads it from here with BENCH_CONNECTIONS (32) connections for BENCH_DURATION
// (10) s per view, after BENCH_WARMUP (5) s of both views together and 2 s of each before it is
// measured: the student view (each connection signed in as another of 64 students, so no one student's
// rows stay hot) and the editor view. Prints p50/p95/p99, req/s and the CPU each request cost (API,
// PostgreSQL, autocannon, whole box, from /proc), and this box's speed before and after (a bare Fastify
// hello-world at the same connections). Budgets on PostgreSQL, in CPU per request of the API, PostgreSQL
// and autocannon together (issue 22 §3: latency on this shared box moves 2× with the hour, the work a
// request needs does not): the student view ≤ STUDENT_CPU_MS, the editor view ≤ EDITOR_CPU_MS; exits 1
// when one is over. p50/p95/p99 are information (the target, p95 < 100 ms, docs/performance.md).
// BENCH_TARGETS=pglite,postgres adds the embedded database (information only).
import os from 'node:os';
import autocannon from 'autocannon';
import { EditorCourseOverview, StudentCourseOverview } from '@kadai/contracts';
import { boxSpeedLine, helloCeiling } from './box-speed.ts';
import { cpuBetween, cpuLine, cpuPerRequest, snapshotCpu, type CpuPerRequest } from './cpu.ts';
import { createBenchDatabase, startBenchServer, stopProcess } from './processes.ts';
import { percentile } from './stats.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres').split(',').map((s) => s.trim());
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Budgets in ms of CPU per request (API + PostgreSQL + load generator), about a third above what the
 * views cost on 2026-11-27 (1.78 and 3.51 ms, load 1.3): room for run-to-run noise, while a change that
 * makes a view a third dearer fails.
 */
const STUDENT_CPU_MS = 2.4;
const EDITOR_CPU_MS = 4.7;

interface Ready {
  port: number;
  courseId: number;
  editorToken: string;
  studentTokens: string[];
  seeded: {
    students: number;
    submissions: number;
    quizSubmissions: number;
    forumRecords: number;
    seconds: number;
  };
}

function isReady(value: unknown): value is Ready {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ready' in value &&
    'port' in value &&
    'editorToken' in value &&
    'studentTokens' in value &&
    Array.isArray(value.studentTokens)
  );
}

type Request = { method: 'GET'; path: string; headers: Record<string, string> };

/** One autocannon run over `requests` (each connection cycles through them), keeping every latency. */
function load(port: number, requests: Request[], seconds: number) {
  return new Promise<{ latencies: number[]; result: autocannon.Result }>((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      { url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: seconds, requests },
      (error: unknown, result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ latencies, result });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

interface Row {
  database: string;
  view: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
  budget: number;
  /** CPU per request in ms: the API's processes, every PostgreSQL process, this one, the whole box. */
  cpu: CpuPerRequest;
}

async function measure(
  database: string,
  view: string,
  budget: number,
  ready: Ready,
  requests: Request[],
  apiPid: number,
) {
  await load(ready.port, requests, 2); // warm-up: pool connections, plans, caches
  const before = await snapshotCpu(apiPid);
  const { latencies, result } = await load(ready.port, requests, DURATION);
  const used = cpuBetween(before, await snapshotCpu(apiPid));
  const row: Row = {
    database,
    view,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
    budget,
    cpu: cpuPerRequest(used, latencies.length),
  };
  console.log(
    `${database}: ${view}: p50 ${row.p50.toFixed(1)} / p95 ${row.p95.toFixed(1)} / p99 ${row.p99.toFixed(1)} ms, ` +
      `${Math.round(row.rps)} req/s, errors ${row.errors}; CPU per request: ${cpuLine(row.cpu)}`,
  );
  return row;
}

/** What each view holds for a signed-in student who writes in the forum and for the editor: real pages. */
async function describePages(ready: Ready, path: string): Promise<void> {
  const get = async (token: string) => {
    const res = await fetch(`http://127.0.0.1:${ready.port}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  // The first student only reads the forum (forum-seed's viewer); the second writes in it too.
  const s = StudentCourseOverview.parse(await get(ready.studentTokens[1] ?? ready.studentTokens[0]!));
  const e = EditorCourseOverview.parse(await get(ready.editorToken));
  const n = (section: { count: number }) => section.count;
  console.log(
    `  student view: ${n(s.due_soon)} due soon, ${n(s.open_quizzes)} open quizzes, ${n(s.unread_announcements)} unread ` +
      `announcements, ${n(s.forum_replies)} topics with replies, ${n(s.latest_results)} results, ${n(s.upcoming_events)} events`,
  );
  console.log(
    `  editor view: ${n(e.grading_attention)} submissions need attention, ${n(e.closing_soon)} closing this week, ` +
      `${n(e.missing_submissions)} assignments with missing work (${e.missing_submissions.results
        .map((m) => m.missing_count)
        .join(
          ', ',
        )} students), ${n(e.unanswered_questions)} unanswered questions, ${e.open_workbook_sessions} live sessions`,
  );
}

async function run(database: string, ready: Ready, apiPid: number): Promise<Row[]> {
  const path = `/api/Course/${ready.courseId}/overview/`;
  const as = (token: string): Request => ({
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${token}` },
  });
  await describePages(ready, path);
  const students = ready.studentTokens.map(as);
  const editor = [as(ready.editorToken)];
  await load(ready.port, [...students, ...editor], WARMUP);
  return [
    await measure(
      database,
      `student view (${students.length} students)`,
      STUDENT_CPU_MS,
      ready,
      students,
      apiPid,
    ),
    await measure(database, 'editor view', EDITOR_CPU_MS, ready, editor, apiPid),
  ];
}

console.log(
  `The course home of a course of ${process.env.BENCH_STUDENTS ?? 1000} students; autocannon: ${CONNECTIONS} ` +
    `connections, ${DURATION} s per view after a 2 s warm-up; load ${os.loadavg()[0]!.toFixed(1)}.\n`,
);
console.log(boxSpeedLine('before', await helloCeiling(CONNECTIONS), CONNECTIONS));

const rows: Row[] = [];
let pgMissing = false;
for (const target of TARGETS) {
  const database = target === 'postgres' ? await createBenchDatabase(pgServer, 'kadai_bench_overview') : null;
  if (target === 'postgres' && !database) {
    pgMissing = true;
    continue;
  }
  const name = target === 'postgres' ? 'PostgreSQL' : 'PGlite';
  try {
    const server = await startBenchServer(
      'overview-server.ts',
      { DATABASE_URL: database?.url ?? '' },
      isReady,
    );
    const s = server.ready.seeded;
    console.log(
      `${name}: seeded ${s.students.toLocaleString('en-US')} students, ${s.submissions.toLocaleString('en-US')} ` +
        `submissions, ${s.quizSubmissions.toLocaleString('en-US')} quiz submissions, ` +
        `${s.forumRecords.toLocaleString('en-US')} forum records in ${s.seconds.toFixed(0)} s`,
    );
    try {
      rows.push(...(await run(name, server.ready, server.child.pid ?? 0)));
    } finally {
      await stopProcess(server.child);
    }
  } finally {
    await database?.drop();
  }
}

console.log(boxSpeedLine('after', await helloCeiling(CONNECTIONS), CONNECTIONS));

const ms = (x: number) => `${x.toFixed(1)} ms`;
const verdictOf = (r: Row) => {
  if (r.errors > 0) return 'ERRORS';
  // PGlite runs inside the API's process: its CPU is not comparable with the PostgreSQL budgets.
  if (r.database !== 'PostgreSQL') return 'information';
  const budget = `${r.budget.toFixed(1)} ms`;
  return r.cpu.served <= r.budget ? `meets ≤ ${budget}` : `OVER ${budget}`;
};
console.log('');
console.table(
  rows.map((r) => ({
    database: r.database,
    view: r.view,
    p50: ms(r.p50),
    p95: ms(r.p95),
    p99: ms(r.p99),
    'req/s': Math.round(r.rps),
    'CPU/req': `${r.cpu.served.toFixed(2)} ms`,
    'whole box': `${r.cpu.box.toFixed(2)} ms`,
    errors: r.errors,
    verdict: verdictOf(r),
  })),
);
console.log(
  'CPU/req: the API, PostgreSQL and autocannon together, what the verdict uses; whole box: every busy ' +
    'core, other work on the box included (information). p50/p95/p99: information (the issue: p95 < 100 ms).',
);
const failed = pgMissing || rows.some((r) => /OVER|ERRORS/.test(verdictOf(r)));
process.exit(failed ? 1 : 0);
