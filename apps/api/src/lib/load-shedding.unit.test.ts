import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from './errors.ts';
import { shedLoad, type LoadLimits } from './load-shedding.ts';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** Calls to /api/slow wait until `release()`; the app answers errors as the API does. */
async function build(limits: LoadLimits) {
  const app = Fastify();
  apps.push(app);
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ detail: error.message, code: error.code });
    }
    return reply.code(500).send({ detail: 'Internal server error.', code: 'internal_error' });
  });
  const shed = shedLoad(app, limits);
  const waiting: (() => void)[] = [];
  const hold = () => new Promise<void>((resolve) => waiting.push(resolve));
  app.get('/api/slow', async () => (await hold(), { slow: true }));
  app.get('/api/long', { config: { longRunning: true } }, async () => (await hold(), { long: true }));
  app.post('/api/fast', async () => ({ fast: true }));
  app.get('/api/health', async () => ({ ok: true }));
  app.get('/assets/app.js', async () => 'js');
  await app.ready();
  return {
    app,
    shed,
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
    held: () => waiting.length,
  };
}

const settle = async (until: () => boolean) => {
  for (let i = 0; i < 200 && !until(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('shedLoad', () => {
  it('refuses the call past maxInFlight at once with 503 overloaded and Retry-After, then takes calls again', async () => {
    const { app, shed, release, held } = await build({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const slow = [app.inject('/api/slow'), app.inject('/api/slow')];
    await settle(() => held() === 2);
    expect(shed.inFlight()).toBe(2);

    const refused = await app.inject({ method: 'POST', url: '/api/fast', payload: { a: 1 } });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toMatchObject({ code: 'overloaded' });
    // Never refused: the health check, the web app's files, and calls that take long by design.
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/assets/app.js')).statusCode).toBe(200);
    const long = app.inject('/api/long');
    await settle(() => held() === 3);
    expect(shed.inFlight()).toBe(2);

    release();
    expect((await Promise.all([...slow, long])).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(shed.inFlight()).toBe(0);
    expect((await app.inject({ method: 'POST', url: '/api/fast', payload: {} })).statusCode).toBe(200);
  });

  it('counts a call its client abandoned as ended', async () => {
    const { app, shed, release, held } = await build({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    const controller = new AbortController();
    const abandoned = app.inject({ url: '/api/slow', signal: controller.signal }).catch(() => null);
    await settle(() => held() === 1);
    controller.abort();
    await abandoned;
    release();
    await settle(() => shed.inFlight() === 0);
    expect(shed.inFlight()).toBe(0);
    expect((await app.inject({ method: 'POST', url: '/api/fast', payload: {} })).statusCode).toBe(200);
  });

  it('refuses calls while the event loop lags, and takes them again once it keeps up', async () => {
    const { app } = await build({ maxInFlight: 0, maxEventLoopDelayMs: 100 });
    const call = () => app.inject({ method: 'POST', url: '/api/fast', payload: {} });
    // Busy for 200 ms at every turn, as under a flood: every tick comes ~200 ms late. Two late samples
    // (half a second each) make it refuse; on a loaded box the sampler's own timer may come later than
    // that, so the flood goes on until the answer changes (or 10 s have passed, and the test fails).
    const until = Date.now() + 10_000;
    let refused = await call();
    while (refused.statusCode !== 503 && Date.now() < until) {
      const end = Date.now() + 200;
      while (Date.now() < end) {
        /* busy */
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      refused = await call();
    }
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'overloaded' });
    // Idle again: the next sample that is not late lets calls in.
    let taken = refused;
    while (taken.statusCode !== 200 && Date.now() < until + 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      taken = await call();
    }
    expect(taken.statusCode).toBe(200);
  });
});
