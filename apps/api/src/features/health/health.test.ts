import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Health } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { graderHosts } from '../../db/schema-cluster.ts';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true, sandboxOk: false });
  });
  afterAll(() => t.close());

  it('reports database, queue and sandbox, and says when the sandbox is missing', async () => {
    const res = await call(t, 'GET', '/api/health');
    expect(res.status).toBe(200);
    const health = Health.parse(res.body);
    expect(health.database.ok).toBe(true);
    expect(health.queue.ok).toBe(true);
    expect(health.sandbox.ok).toBe(false);
    expect(health.sandbox.detail).toMatch(/bubblewrap/);
    expect(health.status).toBe('degraded');
  });

  it('answers with a request id and security headers', async () => {
    const res = await call(t, 'GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('replaces a request id that could forge or bloat log lines', async () => {
    for (const forged of ['a'.repeat(500), 'abc\ninjected', 'x y']) {
      const res = await call(t, 'GET', '/api/health', { headers: { 'x-request-id': forged } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers unknown API paths with the one error shape', async () => {
    const res = await call(t, 'GET', '/api/does-not-exist/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await call(t, 'GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(Object.keys(res.json.paths ?? {})).toContain('/api/health');
  });
});

describe('GET /api/health on an API that does not grade (RUN_GRADER=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ remoteGraders: true, jobs: true });
  });
  afterAll(() => t.close());

  const sandbox = async () => Health.parse((await call(t, 'GET', '/api/health')).body).sandbox;

  it('says grading waits while no grader host with a working sandbox is alive', async () => {
    expect(await sandbox()).toEqual({
      ok: false,
      detail: expect.stringMatching(/no grader host is running/),
    });
    await t.ctx.db.insert(graderHosts).values({
      id: 'grader-nobwrap',
      hostname: 'g1',
      pid: 1,
      sandboxOk: false,
      sandboxDetail: 'missing bubblewrap',
      concurrency: 2,
    });
    expect(await sandbox()).toEqual({ ok: false, detail: expect.stringMatching(/g1: missing bubblewrap/) });
    await t.ctx.db
      .insert(graderHosts)
      .values([
        { id: 'grader-ok', hostname: 'g2', pid: 2, sandboxOk: true, sandboxDetail: 'ok', concurrency: 2 },
      ]);
    expect(await sandbox()).toEqual({ ok: true, detail: '1 grader host(s) alive with a working sandbox' });
  });

  it('still answers with its body when the grader hosts cannot be read', async () => {
    await t.database.query('ALTER TABLE grader_hosts RENAME TO grader_hosts_away');
    try {
      const res = await call(t, 'GET', '/api/health');
      expect(res.status).toBe(200);
      expect(Health.parse(res.body)).toMatchObject({
        status: 'degraded',
        database: { ok: true },
        sandbox: { ok: false, detail: expect.stringMatching(/^unknown: the grader hosts could not be read/) },
      });
    } finally {
      await t.database.query('ALTER TABLE grader_hosts_away RENAME TO grader_hosts');
    }
  });
});
