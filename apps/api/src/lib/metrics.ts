import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram } from 'prom-client';
import {
  METRICS_CONTENT_TYPE,
  createMetricsRegistry,
  hasMetricsToken,
  registerPoolGauges,
  type PoolStats,
  type Registry,
} from '@kadai/grader/metrics';
import type { QueueBacklog } from './jobs.ts';

/*
 * Prometheus metrics of an API process or a kernel host (issue 41; docs/operations.md, "Metrics"):
 * requests by route template and status with their latency, and gauges read when Prometheus scrapes.
 * Off unless METRICS_TOKEN is set; then `GET /metrics` asks for it as a bearer token. Each app has a
 * registry of its own: tests build many apps in one process.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics; null when METRICS_TOKEN is unset. */
    metrics: Registry | null;
  }
}

/** The route label of a request no route matched (a 404, the web app's pages, a malformed URL). */
export const UNMATCHED_ROUTE = '(unmatched)';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds: most calls answer in milliseconds; exports, uploads and workbook cells take seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The route a request matched, as registered (`/api/Course/:id/`), never its URL, so the label has as
 * many values as the app has routes. The built web app's files (one route each, named by content hash)
 * share one label: a value per file would grow with every release.
 */
export function routeLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return UNMATCHED_ROUTE;
  return url.startsWith('/assets/') ? '/assets/*' : url;
}

/**
 * The request counter and latency histogram on `registry`, and the function that counts one answer. A
 * label set's children are found once: prom-client validates and hashes the labels on every call.
 * What it costs per request is measured by bench/metrics-hook.ts (docs/operations.md, "Overhead").
 */
export function requestCounter(
  registry: Registry,
): (method: string, route: string, status: number, seconds: number) => void {
  const requests = new Counter({
    name: 'kadai_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'kadai_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const children = new Map<
    string,
    { count: Counter.Internal; time: Histogram.Internal<'method' | 'route'> }
  >();
  return (method, route, status, seconds) => {
    const verb = METHODS.has(method) ? method : 'OTHER';
    const key = `${verb} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = { count: requests.labels(verb, route, String(status)), time: duration.labels(verb, route) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  };
}

/**
 * When `token` is set, counts every answer of `app` by method, route and status, with its latency, and
 * decorates `app.metrics` with the registry; else decorates null and counts nothing. Call it before the
 * routes are registered; `serveMetrics` adds the route.
 */
export function countRequests(app: FastifyInstance, token: string | undefined): Registry | null {
  if (!token) {
    app.decorate('metrics', null);
    return null;
  }
  const registry = createMetricsRegistry();
  app.decorate('metrics', registry);
  const count = requestCounter(registry);
  app.addHook('onResponse', (request, reply, done) => {
    count(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}

/**
 * `GET /metrics`: 404 when metrics are off (the path is not the web app's either), 401 without the
 * token, else the registry in Prometheus's text format. Outside /api and out of the API reference:
 * it is for a scraper, not for API clients.
 */
export function serveMetrics(app: FastifyInstance, token: string | undefined): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const registry = app.metrics;
    if (!registry || !token) return reply.code(404).send({ detail: 'Not found.', code: 'not_found' });
    if (!hasMetricsToken(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ detail: 'The metrics token is missing or wrong.', code: 'not_authenticated' });
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await registry.metrics());
  });
}

/**
 * How long a scrape waits for one database read before leaving its metrics out: well inside
 * Prometheus's default scrape timeout of 10 s.
 */
export const SCRAPE_READ_MS = 2000;

/**
 * `read`, at most once per scrape (gauges collected together share one call) and within `timeoutMs`;
 * null when it failed or took too long, counted in `kadai_metrics_read_failures_total` and logged. A
 * failed read leaves its metrics out of that scrape; it never fails the scrape.
 */
function oncePerScrape<T>(
  source: string,
  read: () => Promise<T>,
  failures: Counter<'source'>,
  log: WarningLog,
  timeoutMs: number,
): () => Promise<T | null> {
  let pending: Promise<T | null> | null = null;
  const attempt = async (): Promise<T | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([read(), late]);
    } catch (error) {
      failures.inc({ source });
      log.warn({ err: error, source }, 'metrics: a read failed; its metrics are left out of this scrape');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    pending ??= attempt().finally(() => {
      pending = null;
    });
    return pending;
  };
}

/** Where a failed read is told (the app's logger). */
export interface WarningLog {
  warn(fields: object, message: string): void;
}

/** What the gauges of an API process or kernel host read when Prometheus scrapes. */
export interface GaugeSources {
  log: WarningLog;
  pool: () => PoolStats | null;
  kernels: () => { running: number; max: number };
  /** Short API calls in flight (the load-shedding count); absent on a kernel host. */
  inFlight?: () => number;
  /** pg-boss queues; absent where no queue is read (a kernel host). */
  queues?: (timeoutMs: number) => Promise<QueueBacklog[]>;
  /** E-mails of the last day by status; absent on a kernel host. */
  emails?: (timeoutMs: number) => Promise<Record<string, number>>;
  /** How long a scrape waits for each read (default SCRAPE_READ_MS). */
  readTimeoutMs?: number;
}

export function registerGauges(registry: Registry, sources: GaugeSources): void {
  const registers = [registry];
  const timeoutMs = sources.readTimeoutMs ?? SCRAPE_READ_MS;
  /** The scrape's reads: the failure count waits for them, so a scrape counts its own failures. */
  const reads: (() => Promise<unknown>)[] = [];
  const failures = new Counter({
    name: 'kadai_metrics_read_failures_total',
    help: 'Scrape-time database reads that failed or timed out (their metrics were left out of that scrape).',
    labelNames: ['source'],
    registers,
    async collect() {
      await Promise.all(reads.map((read) => read()));
    },
  });
  // The embedded database has no pool: no gauges rather than zeros.
  if (sources.pool() !== null) registerPoolGauges(registry, sources.pool);
  new Gauge({
    name: 'kadai_kernels_running',
    help: 'Workbook kernels running in this process.',
    registers,
    collect() {
      this.set(sources.kernels().running);
    },
  });
  new Gauge({
    name: 'kadai_kernels_max',
    help: 'Workbook kernels this process may run (WORKBOOK_MAX_KERNELS).',
    registers,
    collect() {
      this.set(sources.kernels().max);
    },
  });
  const { inFlight, queues, emails } = sources;
  if (inFlight) {
    new Gauge({
      name: 'kadai_http_requests_in_flight',
      help: 'Short API calls being served now (the count MAX_REQUESTS_IN_FLIGHT bounds).',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
  }
  if (queues) {
    const backlog = oncePerScrape('queues', () => queues(timeoutMs), failures, sources.log, timeoutMs);
    reads.push(backlog);
    const byQueue = (
      name: string,
      help: string,
      labelNames: string[],
      set: (g: Gauge, q: QueueBacklog) => void,
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const rows = await backlog();
          this.reset();
          for (const row of rows ?? []) set(this, row);
        },
      });
    byQueue(
      'kadai_queue_jobs',
      'Jobs not yet started, by queue and state: waiting (ready to run) or scheduled (due later: retry delays, schedules).',
      ['queue', 'state'],
      (gauge, row) => {
        gauge.set({ queue: row.queue, state: 'waiting' }, row.waiting);
        gauge.set({ queue: row.queue, state: 'scheduled' }, row.scheduled);
      },
    );
    byQueue(
      'kadai_queue_oldest_waiting_seconds',
      'How long the oldest job ready to run has waited, by queue (0 when none waits).',
      ['queue'],
      (gauge, row) => gauge.set({ queue: row.queue }, row.oldestWaitingSeconds),
    );
  }
  if (emails) {
    const counts = oncePerScrape('emails', () => emails(timeoutMs), failures, sources.log, timeoutMs);
    reads.push(counts);
    new Gauge({
      name: 'kadai_emails',
      help: 'E-mails written in the last 24 hours, by their outbox status now (pending, sent, failed, kept).',
      labelNames: ['status'],
      registers,
      async collect() {
        const byStatus = await counts();
        this.reset();
        for (const [status, count] of Object.entries(byStatus ?? {})) this.set({ status }, count);
      },
    });
  }
}
