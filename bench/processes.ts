// What every HTTP benchmark does around its measurements: start the API under test in its own process,
// stop it, and make a fresh PostgreSQL database for it (dropped afterwards).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The V8 flags `npm start` gives the API (package.json; docs/performance.md, "The API's young
 * generation"): every bench server, the references too, runs as the API does in production.
 */
export const API_NODE_FLAGS = '--max-semi-space-size=64';

/**
 * Runs `bench/<script>` with tsx and waits for the JSON line it prints when it listens (the first line
 * `isReady` accepts); rejects if the process exits first.
 */
export async function startBenchServer<T>(
  script: string,
  env: Record<string, string>,
  isReady: (value: unknown) => value is T,
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'bench', script)], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, API_NODE_FLAGS].filter(Boolean).join(' '),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.on('line', (line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        if (isReady(parsed)) resolve(parsed);
      } catch {
        // Not our line.
      }
    });
  });
  return { child, ready };
}

/**
 * The machine's ceiling (bench/hello-server.ts: a bare Fastify hello-world, and with BENCH_PG_URL a
 * route sending one PostgreSQL query), listening.
 */
export function startHelloServer(env: Record<string, string> = {}) {
  return startBenchServer(
    'hello-server.ts',
    env,
    (value): value is { port: number } =>
      typeof value === 'object' &&
      value !== null &&
      'ready' in value &&
      'port' in value &&
      typeof value.port === 'number',
  );
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/**
 * A new database `<prefix>_<time>` on the server at `serverUrl`, and how to drop it; null (with a
 * warning) when the server does not answer, so the bench goes on without PostgreSQL.
 */
export async function createBenchDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.warn(`PostgreSQL not reachable at ${serverUrl}: ${String(error)} — skipping PostgreSQL.`);
    return null;
  }
  const name = `${prefix}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
