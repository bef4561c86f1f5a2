// `npm run bench:api`: requests per second and p99 latency of signed-in API routes on the embedded
// database and on PostgreSQL, beside a Fastify hello-world as this machine's ceiling, in one run.
// Each server runs in its own process; autocannon runs here. Targets (PostgreSQL, 32 connections):
// at least a quarter of the ceiling and p99 under 50 ms.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Ready {
  port: number;
  token?: string;
}

async function startServer(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'bench', script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.on('line', (line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed && typeof parsed === 'object' && 'ready' in parsed && 'port' in parsed) {
          const { port } = parsed;
          const token = 'token' in parsed && typeof parsed.token === 'string' ? parsed.token : undefined;
          if (typeof port === 'number') resolve({ port, token });
        }
      } catch {
        // Not our line.
      }
    });
  });
  return { child, ready };
}

async function stop(child: ChildProcess) {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
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

async function makeDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: pgServer });
  try {
    await admin.connect();
  } catch (error) {
    console.warn(`PostgreSQL not reachable at ${pgServer}: ${String(error)} — skipping PostgreSQL figures.`);
    return null;
  }
  const name = `kadai_bench_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgServer });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const figures: Figure[] = [];

console.log(`autocannon: ${connections} connections, ${duration} s per route (after a 2 s warm-up)\n`);

const hello = await startServer('hello-server.ts', { BENCH_PG_URL: pgServer });
figures.push(await measure('ceiling: Fastify hello-world', `http://127.0.0.1:${hello.ready.port}/hello`));
const dbCeiling = await measure(
  'reference: Fastify + one pg query',
  `http://127.0.0.1:${hello.ready.port}/db`,
).catch(() => null);
if (dbCeiling && dbCeiling.errors === 0) figures.push(dbCeiling);
await stop(hello.child);

const embedded = await startServer('app-server.ts', { DATABASE_URL: '' });
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
await stop(embedded.child);

const pgDatabase = await makeDatabase();
if (pgDatabase) {
  try {
    const server = await startServer('app-server.ts', { DATABASE_URL: pgDatabase.url });
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
    await stop(server.child);
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
