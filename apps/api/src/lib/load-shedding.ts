import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A call that takes long by design (a workbook cell, a precheck, a download, a large upload): not
     * counted among the requests in flight, so a few of them never crowd out the short calls. Each has a
     * limit of its own (slots, rates, sizes).
     */
    longRunning?: boolean;
  }
}

export interface LoadLimits {
  /** Short API calls being served at once by this process; the next one is refused. 0: no bound. */
  maxInFlight: number;
  /**
   * The event loop's mean delay, over each of the last two half seconds; past it new calls are refused
   * (one long pause, a garbage collection or a slow embedded query, is not yet a flood). 0: no bound.
   */
  maxEventLoopDelayMs: number;
}

export const RETRY_AFTER_SECONDS = 2;
const SAMPLE_MS = 500;

export const overloaded = () =>
  new HttpError(
    503,
    'overloaded',
    `The server is busy; try again in ${RETRY_AFTER_SECONDS} seconds. Nothing was changed.`,
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/** What is never refused: the web app's files, the health check, and calls that take long by design. */
function exempt(request: FastifyRequest): boolean {
  const url = request.url;
  return (
    !url.startsWith('/api/') ||
    url.startsWith('/api/health') ||
    request.routeOptions.config.longRunning === true
  );
}

/**
 * Load shedding (issue 36, item 4), as `@fastify/under-pressure` does it: when this process is already
 * serving `maxInFlight` short API calls, or its event loop lags by more than `maxEventLoopDelayMs`, a new
 * call is refused at once with 503 `overloaded` and `Retry-After` — before its body is read or the
 * database is asked — rather than queued behind the others until a client or proxy gives up on it and
 * retries work that may already be done. A refused call has changed nothing.
 *
 * The in-flight count is the measure that matters for a deadline spike: a submit waits for a database
 * connection, not for the CPU, so the event loop stays quick while the queue grows.
 */
export function shedLoad(app: FastifyInstance, limits: LoadLimits): { inFlight(): number } {
  let inFlight = 0;
  let lagging = false;
  let lateBefore = false;
  const resolutionMs = 20;
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  if (limits.maxEventLoopDelayMs > 0) {
    delay.enable();
    const sampler = setInterval(() => {
      // Each sample is the time between two ticks of `resolutionMs`: what exceeds it is the lag.
      const late = delay.mean / 1e6 - resolutionMs > limits.maxEventLoopDelayMs;
      lagging = late && lateBefore;
      lateBefore = late;
      delay.reset();
    }, SAMPLE_MS);
    sampler.unref();
    app.addHook('onClose', async () => {
      clearInterval(sampler);
      delay.disable();
    });
  }
  app.addHook('onRequest', async (request, reply) => {
    if (exempt(request)) return;
    if ((limits.maxInFlight > 0 && inFlight >= limits.maxInFlight) || lagging) {
      request.log.warn({ inFlight, lagging }, 'overloaded: call refused');
      throw overloaded();
    }
    inFlight += 1;
    // 'close' comes once for every response, answered or abandoned by the client.
    reply.raw.once('close', () => {
      inFlight -= 1;
    });
  });
  return { inFlight: () => inFlight };
}
