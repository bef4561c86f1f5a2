/**
 * The cluster test's machinery: Kadai's services started as an operator starts them (plain `node`
 * processes), a round-robin proxy without sticky sessions, and a PostgreSQL database that can be made
 * unreachable. Every wait is bounded in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The PostgreSQL server the cluster runs on: TEST_DATABASE_URL's server, else the local one. */
export function serverUrl(): string {
  const given = process.env.TEST_DATABASE_URL || process.env.CLUSTER_DATABASE_URL;
  const url = new URL(given || 'postgres://postgres@127.0.0.1:5432/test');
  url.pathname = '/test';
  return url.toString();
}

export async function serverReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database; returns its URL. */
export async function createDatabase(name: string): Promise<string> {
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** The outage: no new connections, and every open one cut. */
export async function cutDatabase(name: string): Promise<void> {
  await admin(async (c) => {
    await c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
  });
}

/**
 * Terminates the backends of database `name` that are inside a transaction (running a statement of one,
 * or idle in one), as a failover or an operator's pg_terminate_backend does; the states they were in.
 */
export async function terminateTransactions(name: string): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ state: string }>(
      `SELECT state, pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
      [name],
    );
    return rows.map((row) => row.state);
  });
}

export async function restoreDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
}

/** Rows from the cluster's database, read beside the services. */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export interface Service {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  running(): boolean;
  /** SIGTERM, then the exit within `ms` (SIGKILL and an error past it). */
  stop(ms?: number): Promise<number | string>;
  kill(): Promise<void>;
  log(): string;
}

/** Every service started, so a test that fails half-way still stops them all (`stopAll`). */
const services: Service[] = [];

/** Every service started so far, in order. */
export const started = (): readonly Service[] => services;

/** Stops every service still running (SIGTERM, then SIGKILL past the grace). */
export async function stopAll(): Promise<void> {
  await Promise.all(services.map((service) => service.stop()));
}

/** Starts `node <script>` from the repository root with `env`, its output in `logDir/name.log`. */
export function startService(
  name: string,
  script: string,
  env: Record<string, string>,
  logDir: string,
): Service {
  const logFile = path.join(logDir, `${name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const service: Service = {
    name,
    child,
    logFile,
    exited,
    running: () => !done,
    async stop(ms = 40_000) {
      if (done) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
    async kill() {
      if (done) return;
      child.kill('SIGKILL');
      await exited;
    },
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
  };
  services.push(service);
  return service;
}

/** Polls `check` every `everyMs` until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms: number,
  everyMs = 250,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown = null;
  for (let round = 0; round < Math.ceil(ms / everyMs) + 1; round++) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) break;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(
    `timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
  );
}

export interface Proxy {
  url: string;
  /** How many requests each upstream got. */
  counts: number[];
  close(): Promise<void>;
}

/** A reverse proxy that sends each request to the next upstream in turn: no sticky sessions. */
export async function roundRobinProxy(upstreams: string[]): Promise<Proxy> {
  const counts = upstreams.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % upstreams.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(req.url ?? '/', upstreams[index]);
    const forward = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'upstream unreachable', code: 'bad_gateway' }));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One JSON call to `base`. */
export async function api(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(new URL(url, base), {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
