/**
 * Prometheus metrics (issue 41; docs/operations.md): what every process's `/metrics` shares — a
 * registry of its own with the process's memory, CPU and event-loop lag, the bearer-token check, the
 * connection-pool gauges — and the grader's own metrics, with the small HTTP server `npm run grader`
 * serves them on (GRADER_METRICS_PORT). The API and the kernel hosts serve theirs through Fastify
 * (apps/api/src/lib/metrics.ts); an API that grades in-process puts the grading metrics on its own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GradeOutcome } from './grade.ts';
import type { GraderLogger, PairRunner, SandboxResult, SandboxRunner } from './types.ts';

export type { Registry } from 'prom-client';

/** The media type of Prometheus's text format, version 0.0.4 (what every scraper reads). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * A registry of its own (tests build many apps in one process; the global one would mix them), with
 * prom-client's process metrics: CPU, resident memory, heap, event-loop lag, handles, GC pauses.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an `Authorization` header carries `Bearer <token>`. The digests are compared, in constant
 * time, so neither the token's characters nor its length show in how long a refusal takes.
 */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const given = digest(match?.[1] ?? '');
  return timingSafeEqual(given, digest(token)) && match !== null;
}

/** A connection pool's use (node-postgres: `totalCount`, `idleCount`, `waitingCount`). */
export interface PoolStats {
  /** Connections open, idle or lent out. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is too small, or the database too slow. */
  waiting: number;
  max: number;
}

/** Pool gauges read at scrape time; `read` returning null (an embedded database) leaves them empty. */
export function registerPoolGauges(registry: Registry, read: () => PoolStats | null): void {
  const gauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = read();
        if (stats) this.set(pick(stats));
        else this.reset();
      },
    });
  gauge('kadai_db_pool_connections', 'Database connections open in this process’s pool.', (s) => s.total);
  gauge('kadai_db_pool_idle_connections', 'Open database connections not in use.', (s) => s.idle);
  gauge(
    'kadai_db_pool_waiting_requests',
    'Queries waiting for a free database connection.',
    (s) => s.waiting,
  );
  gauge('kadai_db_pool_max_connections', 'The pool’s size (DATABASE_POOL_SIZE).', (s) => s.max);
}

/** How a sandbox run ended: `ok` (no limit hit), the limit it hit, or the run itself failing. */
export type SandboxRunResult =
  'ok' | 'cpu' | 'wall' | 'memory' | 'output' | 'file_size' | 'error' | 'aborted';

/** The grader's metrics (docs/operations.md, "Metrics"). */
export interface GradingMetrics {
  /** An attempt began; the function returned ends it with its outcome. */
  attemptStarted(): (outcome: GradeOutcome) => void;
  /** A run's result, with its CPU and wall time when it ran to an end (null when the run failed). */
  sandboxRun(result: SandboxRunResult, cpuMs: number | null, wallMs: number | null): void;
}

/** Seconds: sandbox runs take from ~20 ms (a trivial program) to their time limit (seconds). */
const SANDBOX_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: an attempt runs every test case of a submission, up to GRADING_TIMEOUT. */
const ATTEMPT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export function createGradingMetrics(registry: Registry): GradingMetrics {
  const registers = [registry];
  const attempts = new Counter({
    name: 'kadai_grading_attempts_total',
    help: 'Grading attempts by outcome: completed, invalid (format or syntax), stale, skipped, retry (handed back), internal_error (given up).',
    labelNames: ['outcome'],
    registers,
  });
  const duration = new Histogram({
    name: 'kadai_grading_attempt_duration_seconds',
    help: 'Wall time of a grading attempt that did work (skipped attempts left out), by outcome.',
    labelNames: ['outcome'],
    buckets: ATTEMPT_BUCKETS,
    registers,
  });
  const inProgress = new Gauge({
    name: 'kadai_grading_in_progress',
    help: 'Grading attempts running in this process now.',
    registers,
  });
  const runs = new Counter({
    name: 'kadai_sandbox_runs_total',
    help: 'Sandbox runs by result: ok, the limit hit (cpu, wall, memory, output, file_size), error (the sandbox failed) or aborted.',
    labelNames: ['result'],
    registers,
  });
  const cpu = new Histogram({
    name: 'kadai_sandbox_cpu_seconds',
    help: 'CPU time (user + system) of every process of one sandbox run.',
    buckets: SANDBOX_BUCKETS,
    registers,
  });
  const wall = new Histogram({
    name: 'kadai_sandbox_wall_seconds',
    help: 'Wall time of one sandbox run, from spawning the sandbox to its exit.',
    buckets: SANDBOX_BUCKETS,
    registers,
  });
  return {
    attemptStarted() {
      inProgress.inc();
      const started = performance.now();
      return (outcome) => {
        inProgress.dec();
        attempts.inc({ outcome });
        if (outcome !== 'skipped') duration.observe({ outcome }, (performance.now() - started) / 1000);
      };
    },
    sandboxRun(result, cpuMs, wallMs) {
      runs.inc({ result });
      if (cpuMs !== null) cpu.observe(cpuMs / 1000);
      if (wallMs !== null) wall.observe(wallMs / 1000);
    },
  };
}

function resultOf(result: SandboxResult): SandboxRunResult {
  return result.limit ?? 'ok';
}

/** `run`, with each run's result, CPU and wall time counted. */
export function measureSandbox(run: SandboxRunner, metrics: GradingMetrics): SandboxRunner {
  return async (request) => {
    try {
      const result = await run(request);
      metrics.sandboxRun(resultOf(result), result.cpuMs, result.timeMs);
      return result;
    } catch (error) {
      metrics.sandboxRun(request.signal?.aborted ? 'aborted' : 'error', null, null);
      throw error;
    }
  };
}

/** `runPaired`, counted as one run: the CPU of both sandboxes (the harness and the student's code). */
export function measurePaired(runPaired: PairRunner, metrics: GradingMetrics): PairRunner {
  return async (request) => {
    try {
      const result = await runPaired(request);
      const parts = [result.cpuMs, result.worker.cpuMs].filter((ms): ms is number => ms !== null);
      const cpuMs = parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : null;
      metrics.sandboxRun(resultOf(result), cpuMs, result.timeMs);
      return result;
    } catch (error) {
      metrics.sandboxRun(request.main.signal?.aborted ? 'aborted' : 'error', null, null);
      throw error;
    }
  };
}

export interface MetricsServerOptions {
  registry: Registry;
  port: number;
  host: string;
  /** When set, a scrape must carry `Authorization: Bearer <token>` (401 otherwise). */
  token?: string;
  log: GraderLogger;
}

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own, for a process with no HTTP server (the grader). Anything else
 * is 404, a scrape without the token (when one is set) 401.
 */
export async function serveMetrics(options: MetricsServerOptions): Promise<MetricsServer> {
  const { registry, token, log } = options;
  const answer = (response: ServerResponse, status: number, text: string, headers = {}) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    response.end(text);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(response, 404, 'Not found.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return answer(response, 405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    if (token !== undefined && !hasMetricsToken(request.headers.authorization, token))
      return answer(response, 401, 'The metrics token is missing or wrong.\n', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    const text = await registry.metrics();
    response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
    response.end(request.method === 'HEAD' ? undefined : text);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error(`metrics: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answer(response, 500, 'Internal server error.\n');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
