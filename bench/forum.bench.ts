// `npm run bench:forum`: the forum of a large course. The API runs in its own process
// (bench/forum-server.ts) on a fresh database seeded with 100,000 records of one course — 50,000
// topics (1,250 announcements, 5 pinned, 5 scheduled) and 50,000 comments in English and Japanese —
// and a student who has read a tenth of the topics. autocannon loads it from here, BENCH_CONNECTIONS
// (32) connections for BENCH_DURATION (10) s per query, after BENCH_WARMUP (10) s of every query
// together once and 2 s of each before it is measured: list pages 1, 100 and
// 2,000 (deep pages by keyset cursor, and by offset for comparison), the unread tab, the
// announcements, and full-text searches mixing English and Japanese. Prints p50/p95/p99, req/s and
// the CPU each request cost (API, PostgreSQL, autocannon, from /proc; the whole box for information),
// and this box's speed before and after: a bare Fastify hello-world at the same connections.
// Budgets on PostgreSQL, in CPU per request of the API, PostgreSQL and autocannon together (issue 22 §3:
// latency on this shared box moves 2× with the hour, the work a request needs does not): every list
// page (page 1, deep pages by cursor, the unread tab, the announcements) ≤ 1.2 ms, the search mix
// ≤ 2.5 ms; exits 1 when one is over. p50/p95/p99 are information (the latency targets, p95
// < 30 ms and < 100 ms, are met on a quiet box at about these budgets: docs/performance.md).
// BENCH_TARGETS=pglite,postgres adds the embedded database (information only).
import os from 'node:os';
import autocannon from 'autocannon';
import { ForumRecordList } from '@kadai/contracts';
import { cpuBetween, cpuLine, cpuPerRequest, snapshotCpu, type CpuPerRequest } from './cpu.ts';
import { boxSpeedLine, helloCeiling } from './box-speed.ts';
import { createBenchDatabase, startBenchServer, stopProcess } from './processes.ts';
import { percentile } from './stats.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres').split(',').map((s) => s.trim());
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Budgets in ms of CPU per request (API + PostgreSQL + load generator). */
const LIST_CPU_MS = 1.2;
const SEARCH_CPU_MS = 2.5;
const LIMIT = 20;
/** Common and rare words of both languages (a Japanese word is a phrase of character bigrams). */
const SEARCHES = [
  'python',
  'リスト',
  '内包表記',
  'recursion',
  '再帰',
  'binary search',
  'ダイクストラ',
  'topological',
  'トポロジカル',
];

interface Seeded {
  records: number;
  publishedTopics: number;
  announcements: number;
  pinned: number;
  scheduled: number;
  comments: number;
  upvotes: number;
  viewerReads: number;
  seconds: number;
}

interface Ready {
  port: number;
  courseId: number;
  token: string;
  seeded: Seeded;
}

function isReady(value: unknown): value is Ready {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ready' in value &&
    'port' in value &&
    'token' in value &&
    'seeded' in value
  );
}

interface Load {
  latencies: number[];
  result: autocannon.Result;
}

/** One autocannon run over `paths` (each connection cycles through them), keeping every latency. */
function load(port: number, token: string, paths: string[], seconds: number): Promise<Load> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
        requests: paths.map((p) => ({ method: 'GET', path: p })),
      },
      (error: unknown, result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ latencies, result });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

interface Case {
  name: string;
  paths: string[];
  /** CPU budget per request in ms; null: measured for information. */
  budget: number | null;
}

interface Row {
  database: string;
  query: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
  budget: number | null;
  /** CPU per request in ms: the API's processes, every PostgreSQL process, this one, the whole box. */
  cpu: CpuPerRequest;
}

async function measure(database: string, ready: Ready, c: Case, apiPid: number): Promise<Row> {
  await load(ready.port, ready.token, c.paths, 2); // warm-up: pool connections, prepared plans, caches
  const before = await snapshotCpu(apiPid);
  const { latencies, result } = await load(ready.port, ready.token, c.paths, DURATION);
  const used = cpuBetween(before, await snapshotCpu(apiPid));
  return {
    database,
    query: c.name,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
    budget: c.budget,
    cpu: cpuPerRequest(used, latencies.length),
  };
}

function listPath(courseId: number, extra: Record<string, string> = {}, base = 'Forum/Record/'): string {
  const query = new URLSearchParams({ course: String(courseId), limit: String(LIMIT), ...extra });
  return `/api/${base}?${query.toString()}`;
}

async function getList(ready: Ready, p: string): Promise<ForumRecordList> {
  const res = await fetch(`http://127.0.0.1:${ready.port}${p}`, {
    headers: { authorization: `Bearer ${ready.token}` },
  });
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return ForumRecordList.parse(await res.json());
}

/**
 * The cursor that opens page `page`: the previous page's `next_cursor`, fetched once by offset. The
 * cursor's page must hold exactly the rows of the same page by offset, or the bench measures a lie.
 */
async function cursorOf(ready: Ready, page: number): Promise<string> {
  const before = await getList(ready, listPath(ready.courseId, { offset: String((page - 2) * LIMIT) }));
  if (!before.next_cursor) throw new Error(`page ${page - 1} has no next_cursor`);
  const byCursor = await getList(ready, listPath(ready.courseId, { cursor: before.next_cursor }));
  const byOffset = await getList(ready, listPath(ready.courseId, { offset: String((page - 1) * LIMIT) }));
  const ids = (list: ForumRecordList) => list.results.map((r) => r.id).join(',');
  if (byCursor.results.length !== LIMIT || ids(byCursor) !== ids(byOffset)) {
    throw new Error(`page ${page} by cursor (${ids(byCursor)}) differs from by offset (${ids(byOffset)})`);
  }
  return before.next_cursor;
}

async function run(database: string, ready: Ready, apiPid: number): Promise<Row[]> {
  const { courseId } = ready;
  const cases: Case[] = [{ name: 'list page 1', paths: [listPath(courseId)], budget: LIST_CPU_MS }];
  for (const page of [100, 2000]) {
    const label = page.toLocaleString('en-US');
    cases.push(
      {
        name: `list page ${label} (cursor)`,
        paths: [listPath(courseId, { cursor: await cursorOf(ready, page) })],
        budget: LIST_CPU_MS,
      },
      {
        name: `list page ${label} (offset)`,
        paths: [listPath(courseId, { offset: String((page - 1) * LIMIT) })],
        budget: null,
      },
    );
  }
  cases.push(
    {
      name: 'unread only, page 1',
      paths: [listPath(courseId, { unread_only: 'true' })],
      budget: LIST_CPU_MS,
    },
    {
      name: 'announcements, page 1',
      paths: [listPath(courseId, {}, 'Forum/Record/announcements/')],
      budget: LIST_CPU_MS,
    },
  );
  const searchPaths = SEARCHES.map((text) => listPath(courseId, { full_text_search: text }));
  // What each search finds, and its cost alone (one request at a time), for reading the mix's figure.
  for (const [i, text] of SEARCHES.entries()) {
    const times: number[] = [];
    let found = '';
    for (let k = 0; k < 12; k += 1) {
      const started = performance.now();
      const list = await getList(ready, searchPaths[i]!);
      times.push(performance.now() - started);
      found = `${list.count_exact ? '' : 'over '}${list.count.toLocaleString('en-US')}`;
    }
    const alone = percentile(times.slice(2), 50);
    console.log(`${database}: search "${text}" finds ${found} topics; alone ${alone.toFixed(1)} ms (p50)`);
  }
  cases.push({
    name: `search (${SEARCHES.length} queries, en + ja)`,
    paths: searchPaths,
    budget: SEARCH_CPU_MS,
  });

  // The steady state of a running server, not its first seconds after a bulk load of 100,000 records
  // (the database settles — checkpoint, autovacuum — and the first case measured paid for it).
  await load(ready.port, ready.token, [...cases.flatMap((c) => c.paths)], WARMUP);

  const rows: Row[] = [];
  for (const c of cases) {
    const row = await measure(database, ready, c, apiPid);
    console.log(
      `${database}: ${c.name}: p50 ${row.p50.toFixed(1)} / p95 ${row.p95.toFixed(1)} / ` +
        `p99 ${row.p99.toFixed(1)} ms, ${Math.round(row.rps)} req/s, errors ${row.errors}; CPU per request: ` +
        cpuLine(row.cpu),
    );
    rows.push(row);
  }
  return rows;
}

console.log(
  `A course forum of ${Number(process.env.BENCH_TOPICS ?? 50_000).toLocaleString('en-US')} topics and ` +
    `${Number(process.env.BENCH_COMMENTS ?? 50_000).toLocaleString('en-US')} comments; autocannon: ` +
    `${CONNECTIONS} connections, ${DURATION} s per query after a 2 s warm-up; load ${os.loadavg()[0]!.toFixed(1)}.\n`,
);

console.log(boxSpeedLine('before', await helloCeiling(CONNECTIONS), CONNECTIONS));

const rows: Row[] = [];
let pgMissing = false;
for (const target of TARGETS) {
  const database = target === 'postgres' ? await createBenchDatabase(pgServer, 'kadai_bench_forum') : null;
  if (target === 'postgres' && !database) {
    pgMissing = true;
    continue;
  }
  const name = target === 'postgres' ? 'PostgreSQL' : 'PGlite';
  try {
    const started = performance.now();
    const server = await startBenchServer('forum-server.ts', { DATABASE_URL: database?.url ?? '' }, isReady);
    const s = server.ready.seeded;
    console.log(
      `${name}: seeded ${s.records.toLocaleString('en-US')} records (${s.publishedTopics.toLocaleString('en-US')} ` +
        `published topics, ${s.announcements} announcements, ${s.pinned} pinned, ${s.scheduled} scheduled, ` +
        `${s.comments.toLocaleString('en-US')} comments, ${s.upvotes.toLocaleString('en-US')} upvotes; ` +
        `the student has read ${s.viewerReads.toLocaleString('en-US')}) in ${s.seconds.toFixed(0)} s ` +
        `(server ready after ${((performance.now() - started) / 1000).toFixed(0)} s)`,
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
  if (r.budget === null || r.database !== 'PostgreSQL') return 'information';
  const budget = `${r.budget.toFixed(1)} ms`;
  return r.cpu.served <= r.budget ? `meets ≤ ${budget}` : `OVER ${budget}`;
};
console.log('');
console.table(
  rows.map((r) => ({
    database: r.database,
    query: r.query,
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
    'core, other work on the box included (information). p50/p95/p99: information.',
);
const failed = pgMissing || rows.some((r) => /OVER|ERRORS/.test(verdictOf(r)));
process.exit(failed ? 1 : 0);
