// `npm run bench:api`: requests per second and p99 latency of signed-in API routes on the embedded
// database and on PostgreSQL, beside a Fastify hello-world as this machine's ceiling, in one run.
// Each server runs in its own process; autocannon runs here. Targets (PostgreSQL, 32 connections):
// at least a quarter of the ceiling and p99 under 50 ms. API requests carry a browser's Accept-Encoding, so
// answers over 1 KB go out compressed (apps/api/src/lib/compression.ts); the 20-row page is measured
// without it too, and the table says what compression costs there (issue: at most 5 %).
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { cpuBetween, snapshotCpu } from './cpu.ts';
import { createBenchDatabase, startBenchServer, startHelloServer, stopProcess } from './processes.ts';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const compressionRounds = Math.max(1, Number(process.env.BENCH_COMPRESSION_ROUNDS ?? 4));

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

interface Figure {
  target: string;
  rps: number;
  p99: number;
  errors: number;
  /** Answers and seconds measured (a figure may add up several rounds). */
  requests: number;
  seconds: number;
  /** Bytes per answer on the wire, headers included. */
  bytes: number;
  /** CPU of the API's processes per request, ms (null for the reference servers). */
  apiCpu: number | null;
}

interface MeasureOptions {
  token?: string;
  /** Default: a browser's; null sends none (every answer then goes out uncompressed). */
  acceptEncoding?: string | null;
  /** The server under test, whose CPU per request is reported. */
  server?: ChildProcess;
  seconds?: number;
  /** Default true: 2 s of load first, not counted. */
  warmUp?: boolean;
}

async function measure(target: string, url: string, options: MeasureOptions = {}): Promise<Figure> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const acceptEncoding = options.acceptEncoding === undefined ? BROWSER_ENCODINGS : options.acceptEncoding;
  if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
  if (options.warmUp !== false) await autocannon({ url, connections, duration: 2, headers });
  const seconds = options.seconds ?? duration;
  const pid = options.server?.pid;
  const before = pid === undefined ? null : await snapshotCpu(pid);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const used = before === null || pid === undefined ? null : cpuBetween(before, await snapshotCpu(pid));
  const errors = result.errors + result.timeouts + result.non2xx;
  const answers = Math.max(1, result.requests.total);
  return {
    target,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors,
    requests: answers,
    seconds,
    bytes: result.throughput.total / answers,
    apiCpu: used === null ? null : used.api / answers,
  };
}

/** Rounds of a figure as one: requests per second over all, the worst p99, means per request. */
function combine(target: string, rounds: Figure[]): Figure {
  const sum = (f: (x: Figure) => number) => rounds.reduce((total, x) => total + f(x), 0);
  const requests = sum((x) => x.requests);
  const seconds = sum((x) => x.seconds);
  const cpu = rounds.every((x) => x.apiCpu !== null) ? sum((x) => (x.apiCpu ?? 0) * x.requests) : null;
  return {
    target,
    rps: requests / seconds,
    p99: Math.max(...rounds.map((x) => x.p99)),
    errors: sum((x) => x.errors),
    requests,
    seconds,
    bytes: sum((x) => x.bytes * x.requests) / requests,
    apiCpu: cpu === null ? null : cpu / requests,
  };
}

/**
 * The 20-row page without and with compression, in turns on the same server (BENCH_COMPRESSION_ROUNDS,
 * default 4, each of BENCH_DURATION ÷ rounds seconds), so both meet the same moods of a shared box.
 */
async function measureCourseList(database: string, port: number, server: ChildProcess, token?: string) {
  const url = `http://127.0.0.1:${port}/api/Course/?limit=20`;
  const seconds = Math.max(1, Math.round(duration / compressionRounds));
  const plain: Figure[] = [];
  const packed: Figure[] = [];
  for (let round = 0; round < compressionRounds; round++) {
    const warmUp = round === 0;
    const measurePlain = async () =>
      plain.push(await measure('', url, { token, server, seconds, warmUp, acceptEncoding: null }));
    const measurePacked = async () => packed.push(await measure('', url, { token, server, seconds, warmUp }));
    // Each goes first in every other round.
    for (const run of round % 2 === 0 ? [measurePlain, measurePacked] : [measurePacked, measurePlain]) {
      await run();
    }
  }
  const target = `${database} GET /api/Course/ (20 rows)`;
  figures.push(combine(`${target}, uncompressed`, plain), combine(target, packed));
}

const figures: Figure[] = [];

console.log(`autocannon: ${connections} connections, ${duration} s per route (after a 2 s warm-up)\n`);

const hello = await startHelloServer({ BENCH_PG_URL: pgServer });
figures.push(await measure('ceiling: Fastify hello-world', `http://127.0.0.1:${hello.ready.port}/hello`));
const dbCeiling = await measure(
  'reference: Fastify + one pg query',
  `http://127.0.0.1:${hello.ready.port}/db`,
).catch(() => null);
if (dbCeiling && dbCeiling.errors === 0) figures.push(dbCeiling);
await stopProcess(hello.child);

const embedded = await startBenchServer('app-server.ts', { DATABASE_URL: '' }, isReady);
await measureCourseList('PGlite ', embedded.ready.port, embedded.child, embedded.ready.token);
figures.push(
  await measure(
    'PGlite  GET /api/Auth/UserInfo/',
    `http://127.0.0.1:${embedded.ready.port}/api/Auth/UserInfo/`,
    { token: embedded.ready.token, server: embedded.child },
  ),
);
await stopProcess(embedded.child);

const pgDatabase = await createBenchDatabase(pgServer, 'kadai_bench');
if (pgDatabase) {
  try {
    const server = await startBenchServer('app-server.ts', { DATABASE_URL: pgDatabase.url }, isReady);
    await measureCourseList('Postgres', server.ready.port, server.child, server.ready.token);
    figures.push(
      await measure(
        'Postgres GET /api/Auth/UserInfo/',
        `http://127.0.0.1:${server.ready.port}/api/Auth/UserInfo/`,
        { token: server.ready.token, server: server.child },
      ),
    );
    await stopProcess(server.child);
  } finally {
    await pgDatabase.drop();
  }
}

const ceiling = figures[0]!.rps;
const rows = figures.map((f) => {
  const ratio = f.rps / ceiling;
  const isPg = f.target.startsWith('Postgres') && !f.target.endsWith('uncompressed');
  const verdict = isPg ? (ratio >= 0.25 && f.p99 < 50 ? 'meets target' : 'BELOW TARGET') : '';
  return {
    target: f.target,
    'req/s': Math.round(f.rps),
    'p99 ms': f.p99,
    'of ceiling': `${(ratio * 100).toFixed(0)} %`,
    'bytes/answer': Math.round(f.bytes),
    'API CPU ms/req': f.apiCpu === null ? '' : f.apiCpu.toFixed(3),
    errors: f.errors,
    verdict,
  };
});
console.table(rows);

// What compressing the 20-row page costs, from the two rows measured one after the other.
for (const database of ['PGlite ', 'Postgres']) {
  const target = `${database} GET /api/Course/ (20 rows)`;
  const plain = figures.find((f) => f.target === `${target}, uncompressed`);
  const packed = figures.find((f) => f.target === target);
  if (!plain || !packed || plain.apiCpu === null || packed.apiCpu === null) continue;
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  console.log(
    `Compression, ${database.trim()} 20-row page: ${Math.round(plain.bytes)} → ${Math.round(packed.bytes)} ` +
      `bytes per answer; req/s ${pct(packed.rps / plain.rps - 1)}, API CPU per request ` +
      `${pct(packed.apiCpu / plain.apiCpu - 1)} (issue 22: at most 5 % slower).`,
  );
}
if (dbCeiling && dbCeiling.errors === 0 && dbCeiling.rps / ceiling < 0.25) {
  console.log(
    `\nNote: a bare route sending one query to this PostgreSQL reaches ${((dbCeiling.rps / ceiling) * 100).toFixed(0)} % of the ` +
      'ceiling, so on this machine no route that reads the database can reach the 25 % target (docs/performance.md).',
  );
}
const failed = rows.some((r) => r.verdict === 'BELOW TARGET' || r.errors > 0);
process.exit(failed ? 1 : 0);
