// `npm run bench:api`: requests per second and p99 latency of signed-in API routes on the embedded
// database and on PostgreSQL, beside a Fastify hello-world as this machine's ceiling, in one run.
// Each server runs in its own process; autocannon runs here. Targets (PostgreSQL, 32 connections):
// at least a quarter of the ceiling and p99 under 50 ms.
import autocannon from 'autocannon';
import { createBenchDatabase, startBenchServer, startHelloServer, stopProcess } from './processes.ts';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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

interface Figure {
  target: string;
  rps: number;
  p99: number;
  errors: number;
}

async function measure(target: string, url: string, token?: string): Promise<Figure> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration, headers });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { target, rps: result.requests.average, p99: result.latency.p99, errors };
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
figures.push(
  await measure(
    'PGlite  GET /api/Course/ (20 rows)',
    `http://127.0.0.1:${embedded.ready.port}/api/Course/?limit=20`,
    embedded.ready.token,
  ),
);
figures.push(
  await measure(
    'PGlite  GET /api/Auth/UserInfo/',
    `http://127.0.0.1:${embedded.ready.port}/api/Auth/UserInfo/`,
    embedded.ready.token,
  ),
);
await stopProcess(embedded.child);

const pgDatabase = await createBenchDatabase(pgServer, 'kadai_bench');
if (pgDatabase) {
  try {
    const server = await startBenchServer('app-server.ts', { DATABASE_URL: pgDatabase.url }, isReady);
    figures.push(
      await measure(
        'Postgres GET /api/Course/ (20 rows)',
        `http://127.0.0.1:${server.ready.port}/api/Course/?limit=20`,
        server.ready.token,
      ),
    );
    figures.push(
      await measure(
        'Postgres GET /api/Auth/UserInfo/',
        `http://127.0.0.1:${server.ready.port}/api/Auth/UserInfo/`,
        server.ready.token,
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
  const isPg = f.target.startsWith('Postgres');
  const verdict = isPg ? (ratio >= 0.25 && f.p99 < 50 ? 'meets target' : 'BELOW TARGET') : '';
  return {
    target: f.target,
    'req/s': Math.round(f.rps),
    'p99 ms': f.p99,
    'of ceiling': `${(ratio * 100).toFixed(0)} %`,
    errors: f.errors,
    verdict,
  };
});
console.table(rows);
if (dbCeiling && dbCeiling.errors === 0 && dbCeiling.rps / ceiling < 0.25) {
  console.log(
    `\nNote: a bare route sending one query to this PostgreSQL reaches ${((dbCeiling.rps / ceiling) * 100).toFixed(0)} % of the ` +
      'ceiling, so on this machine no route that reads the database can reach the 25 % target (docs/performance.md).',
  );
}
const failed = rows.some((r) => r.verdict === 'BELOW TARGET' || r.errors > 0);
process.exit(failed ? 1 : 0);
