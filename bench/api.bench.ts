// `npm run bench:api`: signed-in API routes on the embedded database and on PostgreSQL, beside two
// reference servers measured in the same run: a Fastify hello-world (this machine's ceiling) and a bare
// Fastify route sending one prepared query to the same PostgreSQL database (the reference). Each server
// runs in its own process; autocannon runs here.
//
// Every row prints the CPU each request cost (the server, every PostgreSQL process, autocannon) and the
// verdict uses it: the CPU the reference spends per request over what the route spends, that is, the
// share of the reference's throughput the route would reach on the same cores. The reference and the
// routes of a database are measured in turns (BENCH_ROUNDS rounds, each route BENCH_DURATION ÷ rounds
// seconds per round), so all of them meet the same moods of a shared box. A route's share is the median
// of its rounds' shares, each against the reference measured beside it in that round: one round spoilt
// by a neighbour's burst (a share 20 % off, seen on 2026-11-28) no longer decides. Targets, on PostgreSQL:
// GET /api/Course/ (20 rows, compressed as a browser asks) ≥ 30 % of the reference,
// GET /api/Auth/UserInfo/ ≥ 60 %. p99, requests per second and the ceiling are information. PGlite rows
// are information: the reference reads PostgreSQL, so they have none to compare with.
//
// API requests carry a browser's Accept-Encoding, so answers over 1 KB go out compressed
// (apps/api/src/lib/compression.ts); the 20-row page is measured without it too, and the script says
// what compression costs there (issue 22: at most 5 %), also as the median of its rounds.
// A second API process serves the same database with metrics on (METRICS_TOKEN set), and its 20-row page
// takes its turns beside the others: the script says what counting requests costs there (issue 41: at
// most 3 %), as the median of its rounds, and what one scrape of /metrics costs.
// Knobs: BENCH_DURATION (16 s per route), BENCH_ROUNDS (8; BENCH_COMPRESSION_ROUNDS, its older name, is
// read too), BENCH_CONNECTIONS (32), BENCH_TARGETS (pglite,postgres), BENCH_PG_URL (a fresh database is
// made on that server, then dropped).
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import autocannon from 'autocannon';
import { defaultPoolSize } from '../apps/api/src/config.ts';
import { cpuBetween, cpuLine, cpuPerRequest, snapshotCpu, type CpuPerRequest } from './cpu.ts';
import { createBenchDatabase, startBenchServer, startHelloServer, stopProcess } from './processes.ts';

const duration = Number(process.env.BENCH_DURATION ?? 16);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? process.env.BENCH_COMPRESSION_ROUNDS ?? 8));
const targets = (process.env.BENCH_TARGETS ?? 'pglite,postgres').split(',').map((s) => s.trim());
/** The API's pool (DATABASE_POOL_SIZE, else its default); the reference gets the same. */
const poolSize = Number(process.env.DATABASE_POOL_SIZE || defaultPoolSize());

/** Shares of the reference each PostgreSQL route must reach (issue 22 §3). */
const COURSE_LIST_SHARE = 0.3;
const USER_INFO_SHARE = 0.6;
/** What compressing the 20-row page may cost (issue 22). */
const COMPRESSION_COST = 0.05;
/** What metrics may cost the 20-row page (issue 41). */
const METRICS_COST = 0.03;
/** The metrics server's token (16+ characters of our choosing: the bench is its only caller). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface Ready {
  port: number;
  token?: string;
}

/** The line a server prints when it listens: its port, and the token of the signed-in bench user. */
function isReady(value: unknown): value is Ready {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ready' in value &&
    'port' in value &&
    typeof value.port === 'number' &&
    (!('token' in value) || typeof value.token === 'string')
  );
}

/** What Chromium sends (less zstd, which node:zlib of Node 20 cannot make). */
const BROWSER_ENCODINGS = 'gzip, deflate, br';

/** One route on one server, as measured. */
interface Route {
  target: string;
  url: string;
  server: ChildProcess;
  token?: string;
  /** Default: a browser's; null sends none (every answer then goes out uncompressed). */
  acceptEncoding?: string | null;
  /** The share of the reference this row must reach; null: information. */
  share: number | null;
}

interface Figure {
  target: string;
  rps: number;
  p99: number;
  errors: number;
  /** Answers and seconds measured (a figure adds up its rounds). */
  requests: number;
  seconds: number;
  /** Bytes per answer on the wire, headers included. */
  bytes: number;
  /** CPU per request, ms. */
  cpu: CpuPerRequest;
  share: number | null;
  /** The rounds a figure adds up, in the order measured (empty for a round itself). */
  rounds: Figure[];
}

function headersOf(route: Route): Record<string, string> {
  const headers: Record<string, string> = {};
  if (route.token) headers.authorization = `Bearer ${route.token}`;
  const acceptEncoding = route.acceptEncoding === undefined ? BROWSER_ENCODINGS : route.acceptEncoding;
  if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
  return headers;
}

async function measure(route: Route, seconds: number): Promise<Figure> {
  const headers = headersOf(route);
  const pid = route.server.pid ?? 0;
  const before = await snapshotCpu(pid);
  const result = await autocannon({ url: route.url, connections, duration: seconds, headers });
  const used = cpuBetween(before, await snapshotCpu(pid));
  const answers = Math.max(1, result.requests.total);
  return {
    target: route.target,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: answers,
    seconds,
    bytes: result.throughput.total / answers,
    cpu: cpuPerRequest(used, answers),
    share: route.share,
    rounds: [],
  };
}

/** Rounds of a figure as one: requests per second over all, the worst p99, means per request. */
function combine(parts: Figure[]): Figure {
  const sum = (f: (x: Figure) => number) => parts.reduce((total, x) => total + f(x), 0);
  const requests = sum((x) => x.requests);
  const mean = (f: (x: Figure) => number) => sum((x) => f(x) * x.requests) / requests;
  return {
    target: parts[0]!.target,
    rps: requests / sum((x) => x.seconds),
    p99: Math.max(...parts.map((x) => x.p99)),
    errors: sum((x) => x.errors),
    requests,
    seconds: sum((x) => x.seconds),
    bytes: mean((x) => x.bytes),
    cpu: {
      api: mean((x) => x.cpu.api),
      postgres: mean((x) => x.cpu.postgres),
      bench: mean((x) => x.cpu.bench),
      served: mean((x) => x.cpu.served),
      box: mean((x) => x.cpu.box),
    },
    share: parts[0]!.share,
    rounds: parts,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Round by round, `ratio` of two figures measured in turns; null when their rounds do not pair up. */
function ratiosByRound(a: Figure, b: Figure, ratio: (x: Figure, y: Figure) => number): number[] | null {
  if (a.rounds.length === 0 || a.rounds.length !== b.rounds.length) return null;
  return a.rounds.map((x, i) => ratio(x, b.rounds[i]!));
}

/**
 * The routes in turns: a 2 s warm-up of each, then `rounds` rounds in which each is loaded for
 * BENCH_DURATION ÷ rounds seconds, the order reversed every other round.
 */
async function measureInTurns(routes: Route[]): Promise<Figure[]> {
  for (const route of routes) {
    await autocannon({ url: route.url, connections, duration: 2, headers: headersOf(route) });
  }
  const seconds = Math.max(1, Math.round(duration / rounds));
  const parts = routes.map((): Figure[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = routes.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) parts[i]!.push(await measure(routes[i]!, seconds));
  }
  return parts.map(combine);
}

/** The metrics server's CPU per scrape of /metrics, over 50 scrapes one after another (after 5). */
async function measureScrapes(server: ChildProcess, port: number): Promise<{ ms: number; bytes: number }> {
  if (process.env.BENCH_METRICS === 'off') return { ms: 0, bytes: 0 };
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, 'accept-encoding': BROWSER_ENCODINGS },
    });
    if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
    return (await response.text()).length;
  };
  for (let i = 0; i < 5; i++) await scrape();
  const before = await snapshotCpu(server.pid ?? 0);
  let bytes = 0;
  const count = 50;
  for (let i = 0; i < count; i++) bytes = await scrape();
  const used = cpuBetween(before, await snapshotCpu(server.pid ?? 0));
  return { ms: (used.api + used.postgres) / count, bytes };
}

console.log(
  `autocannon: ${connections} connections; ${rounds} rounds, each route ${Math.max(1, Math.round(duration / rounds))} s ` +
    `per round (after a 2 s warm-up); load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
);

const figures: Figure[] = [];
let reference: Figure | null = null;
/** CPU of the metrics server per scrape of /metrics, by database (information). */
const scrapes = new Map<string, { ms: number; bytes: number }>();
const pgDatabase = targets.includes('postgres') ? await createBenchDatabase(pgServer, 'kadai_bench') : null;
try {
  // The reference reads the database the PostgreSQL rows read, through a pool of the API's size.
  const hello = await startHelloServer(
    pgDatabase ? { BENCH_PG_URL: pgDatabase.url, BENCH_PG_POOL: String(poolSize) } : {},
  );
  try {
    const base = `http://127.0.0.1:${hello.ready.port}`;
    const ceiling: Route = {
      target: 'ceiling: Fastify hello-world',
      url: `${base}/hello`,
      server: hello.child,
      share: null,
    };
    figures.push(...(await measureInTurns([ceiling])));
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PGlite' ? !targets.includes('pglite') : !pgDatabase) continue;
      // An empty DATABASE_URL: embedded PGlite.
      const databaseUrl = database === 'PostgreSQL' ? (pgDatabase?.url ?? '') : '';
      const server = await startBenchServer('app-server.ts', { DATABASE_URL: databaseUrl }, isReady);
      // The same API with metrics on: on PostgreSQL beside the first, on its database; PGlite lives in
      // one process, so there it seeds a database of its own.
      const metered = await startBenchServer(
        'app-server.ts',
        {
          DATABASE_URL: databaseUrl,
          // BENCH_METRICS=off: the second server without metrics, an A/A run that shows the method's noise.
          ...(process.env.BENCH_METRICS === 'off' ? {} : { METRICS_TOKEN }),
          ...(database === 'PostgreSQL' && server.ready.token ? { BENCH_TOKEN: server.ready.token } : {}),
        },
        isReady,
      ).catch(async (error: unknown) => {
        await stopProcess(server.child);
        throw error;
      });
      try {
        const api = `http://127.0.0.1:${server.ready.port}/api`;
        const onPg = database === 'PostgreSQL';
        const meteredApi = `http://127.0.0.1:${metered.ready.port}/api`;
        const of = (target: string, path: string, share: number | null, acceptEncoding?: null): Route => ({
          target: `${database} ${target}`,
          url: `${api}${path}`,
          server: server.child,
          token: server.ready.token,
          acceptEncoding,
          share: onPg ? share : null,
        });
        const routes = [
          of('GET /api/Course/ (20 rows), uncompressed', '/Course/?limit=20', null, null),
          of('GET /api/Course/ (20 rows)', '/Course/?limit=20', COURSE_LIST_SHARE),
          of('GET /api/Auth/UserInfo/', '/Auth/UserInfo/', USER_INFO_SHARE),
          {
            target: `${database} GET /api/Course/ (20 rows), with metrics`,
            url: `${meteredApi}/Course/?limit=20`,
            server: metered.child,
            token: metered.ready.token,
            share: null,
          },
        ];
        if (onPg) {
          const db: Route = {
            target: 'reference: Fastify + one PostgreSQL query',
            url: `${base}/db`,
            server: hello.child,
            share: null,
          };
          routes.unshift(db);
        }
        const measured = await measureInTurns(routes);
        if (onPg && measured[0]!.errors === 0) reference = measured[0]!;
        figures.push(...measured);
        scrapes.set(database, await measureScrapes(metered.child, metered.ready.port));
      } finally {
        await stopProcess(metered.child);
        await stopProcess(server.child);
      }
    }
  } finally {
    await stopProcess(hello.child);
  }
} finally {
  await pgDatabase?.drop();
}

const ceiling = figures[0]!.rps;
const percent = (x: number) => `${(x * 100).toFixed(0)} %`;
/**
 * The shares of the reference a PostgreSQL row reaches, round by round: the reference's CPU per request
 * over the row's, both measured in that round.
 */
const sharesOf = (f: Figure): number[] | null =>
  reference && f !== reference && f.target.startsWith('PostgreSQL')
    ? ratiosByRound(f, reference, (row, ref) => ref.cpu.served / row.cpu.served)
    : null;
/** The share the verdict uses: the median of the rounds'. */
const shareOf = (f: Figure) => {
  const shares = sharesOf(f);
  return shares ? median(shares) : null;
};
const rangeOf = (values: number[] | null) =>
  values ? `${percent(Math.min(...values))}–${percent(Math.max(...values))}` : '';
const verdictOf = (f: Figure) => {
  if (f.errors > 0) return 'ERRORS';
  if (f.share === null) return '';
  const share = shareOf(f);
  if (share === null) return 'NO REFERENCE';
  return share >= f.share ? `meets ≥ ${percent(f.share)}` : `MISSES ≥ ${percent(f.share)}`;
};
console.table(
  figures.map((f) => {
    const share = shareOf(f);
    return {
      target: f.target,
      'req/s': Math.round(f.rps),
      'p99 ms': f.p99,
      'of ceiling': percent(f.rps / ceiling),
      'bytes/answer': Math.round(f.bytes),
      'CPU ms/req': f.cpu.served.toFixed(3),
      'of reference: CPU': share === null ? '' : percent(share),
      'rounds: range': rangeOf(sharesOf(f)),
      'of reference: req/s': share === null || !reference ? '' : percent(f.rps / reference.rps),
      errors: f.errors,
      verdict: verdictOf(f),
    };
  }),
);
console.log(
  'CPU per request (ms): the server, every PostgreSQL process, autocannon; the verdicts use their sum.',
);
for (const f of figures) console.log(`  ${f.target}: ${cpuLine(f.cpu, 3)}`);

// What compressing the 20-row page costs, from the two rows measured in turns.
for (const database of ['PGlite', 'PostgreSQL']) {
  const target = `${database} GET /api/Course/ (20 rows)`;
  const plain = figures.find((f) => f.target === `${target}, uncompressed`);
  const packed = figures.find((f) => f.target === target);
  if (!plain || !packed) continue;
  const change = (a: number, b: number) => {
    const x = b / a - 1;
    return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  };
  const costs = ratiosByRound(packed, plain, (x, y) => x.cpu.served / y.cpu.served - 1);
  const cost = costs ? median(costs) : packed.cpu.served / plain.cpu.served - 1;
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  console.log(
    `Compression, ${database} 20-row page: ${Math.round(plain.bytes)} → ${Math.round(packed.bytes)} bytes per ` +
      `answer; CPU per request ${signed(cost)} (median of the rounds` +
      `${costs ? `, ${signed(Math.min(...costs))} to ${signed(Math.max(...costs))}` : ''}; all rounds together ` +
      `${change(plain.cpu.served, packed.cpu.served)}, API ${change(plain.cpu.api, packed.cpu.api)}), req/s ` +
      `${change(plain.rps, packed.rps)}: ${cost <= COMPRESSION_COST ? 'within' : 'OVER'} issue 22's ` +
      `${percent(COMPRESSION_COST)} (information).`,
  );
}
// What metrics cost the 20-row page, from the two API processes measured in turns.
for (const database of ['PGlite', 'PostgreSQL']) {
  const target = `${database} GET /api/Course/ (20 rows)`;
  const plain = figures.find((f) => f.target === target);
  const metered = figures.find((f) => f.target === `${target}, with metrics`);
  if (!plain || !metered) continue;
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  const costs = ratiosByRound(metered, plain, (x, y) => x.cpu.served / y.cpu.served - 1);
  const apiCosts = ratiosByRound(metered, plain, (x, y) => x.cpu.api / y.cpu.api - 1);
  const cost = costs ? median(costs) : metered.cpu.served / plain.cpu.served - 1;
  const scrape = scrapes.get(database);
  console.log(
    `Metrics, ${database} 20-row page: CPU per request ${signed(cost)} (median of the rounds` +
      `${costs ? `, ${signed(Math.min(...costs))} to ${signed(Math.max(...costs))}` : ''}; all rounds together ` +
      `${signed(metered.cpu.served / plain.cpu.served - 1)}; the API alone: median ` +
      `${apiCosts ? signed(median(apiCosts)) : '—'}, ${plain.cpu.api.toFixed(3)} → ${metered.cpu.api.toFixed(3)} ms), ` +
      `req/s ${signed(metered.rps / plain.rps - 1)}: ${cost <= METRICS_COST ? 'within' : 'OVER'} issue 41's ` +
      `${percent(METRICS_COST)} (information)` +
      (scrape ? `; one scrape of /metrics: ${scrape.ms.toFixed(1)} ms of CPU, ${scrape.bytes} bytes.` : '.'),
  );
}
const noPg = targets.includes('postgres') && !pgDatabase;
if (noPg) console.log('PostgreSQL not reachable: no verdict.');
const failed = noPg || figures.some((f) => /MISSES|ERRORS|NO REFERENCE/.test(verdictOf(f)));
process.exit(failed ? 1 : 0);
