import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema-mail.ts';
import { buildKernelHostApp } from '../kernel-host-app.ts';
import { createUser, tokenFor } from '../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { parseMetrics, samplesOf } from '../../test/metrics-text.ts';

// GET /metrics (issue 41; docs/operations.md, "Metrics"): off and not found without METRICS_TOKEN, refused
// without its token, and with it Prometheus's text with requests by route template.

const TOKEN = 'metrics-token-for-tests-0123';

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    // With a web app, so that a GET of an unknown path would be the app's page: /metrics must not be.
    webDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Kadai</title>');
    t = await createTestApp({ webDistDir: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('is not found, whatever the caller sends, and keeps no metrics', async () => {
    const asked: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of asked) {
      const answer = await call(t, 'GET', '/metrics', { headers });
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    expect(t.app.metrics).toBeNull();
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = () => call(t, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });

  it('refuses a scrape without the token, with another token or another scheme', async () => {
    const staff = await createUser(t, { isStaff: true });
    const callers: Record<string, Record<string, string>> = {
      'no header': {},
      'a wrong token': { authorization: 'Bearer metrics-token-for-tests-0124' },
      'the token cut short': { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      'the token and more': { authorization: `Bearer ${TOKEN}x` },
      'a staff member’s access token': { authorization: `Bearer ${await tokenFor(t, staff)}` },
      'the token as a password': {
        authorization: `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}`,
      },
      'the token without a scheme': { authorization: TOKEN },
      'a header far too long': { authorization: `Bearer ${'x'.repeat(8000)}` },
    };
    for (const [caller, headers] of Object.entries(callers)) {
      const answer = await call(t, 'GET', '/metrics', { headers });
      expect([caller, answer.status]).toEqual([caller, 401]);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(answer.json.code).toBe('not_authenticated');
    }
  });

  it('answers Prometheus text with requests by route template, never by URL', async () => {
    // A route with a parameter, asked twice with two ids; a path no route matches.
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    expect((await call(t, 'GET', '/api/Course/?limit=5', { token })).status).toBe(200);
    await call(t, 'GET', '/api/Course/912345/', { token });
    await call(t, 'GET', '/api/Course/912346/', { token });
    await call(t, 'GET', '/no/such/place/4711');

    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(typeof answer.body).toBe('string');
    const text = String(answer.body);
    const samples = parseMetrics(text);

    expect(samplesOf(samples, 'kadai_http_requests_total', { route: '/api/Course/', status: '200' })).toEqual(
      [
        {
          name: 'kadai_http_requests_total',
          labels: { method: 'GET', route: '/api/Course/', status: '200' },
          value: 1,
        },
      ],
    );
    const byId = samplesOf(samples, 'kadai_http_requests_total', { route: '/api/Course/:id/' });
    expect(byId.reduce((sum, s) => sum + s.value, 0)).toBe(2);
    expect(
      samplesOf(samples, 'kadai_http_requests_total', { route: '(unmatched)', status: '404' }),
    ).toHaveLength(1);
    // No label holds a URL that was asked for.
    expect(text).not.toContain('912345');
    expect(text).not.toContain('4711');
    expect(text).not.toContain('limit=5');

    const buckets = samplesOf(samples, 'kadai_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/Course/',
    });
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);

    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'kadai_http_requests_in_flight',
      'kadai_kernels_running',
      'kadai_kernels_max',
    ]) {
      expect([name, samplesOf(samples, name).length]).toEqual([name, 1]);
    }
    expect(samplesOf(samples, 'kadai_kernels_max')[0]!.value).toBe(t.config.WORKBOOK_MAX_KERNELS);
    // The pool is PostgreSQL's; the embedded database has none.
    expect(samplesOf(samples, 'kadai_db_pool_connections')).toHaveLength(
      t.database.driver === 'postgres' ? 1 : 0,
    );
    expect(samplesOf(samples, 'kadai_metrics_read_failures_total')).toEqual([]);
  });

  it('reports queue backlogs and the last day’s e-mails, read when scraped', async () => {
    await t.ctx.jobs.send('metrics-test-queue', { n: 1 });
    await t.ctx.jobs.send('metrics-test-queue', { n: 2 });
    await t.ctx.jobs.send('metrics-test-queue', { n: 3 }, { startAfter: 3600 });
    const statuses = ['pending', 'pending', 'sent', 'failed'] as const;
    await t.ctx.db.insert(emailOutbox).values(
      statuses.map((status, i) => ({
        kind: 'notification' as const,
        toAddress: `reader${i}@example.test`,
        lang: 'en-US',
        subject: 'Hello',
        textBody: 'Hello',
        status,
      })),
    );
    // An e-mail from two days ago is outside the window.
    await t.ctx.db.insert(emailOutbox).values({
      kind: 'notification',
      toAddress: 'old@example.test',
      lang: 'en-US',
      subject: 'Old',
      textBody: 'Old',
      status: 'sent',
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });

    const samples = parseMetrics(String((await scrape()).body));
    const jobs = (state: string) =>
      samplesOf(samples, 'kadai_queue_jobs', { queue: 'metrics-test-queue', state })[0]?.value;
    expect([jobs('waiting'), jobs('scheduled')]).toEqual([2, 1]);
    const oldest = samplesOf(samples, 'kadai_queue_oldest_waiting_seconds', { queue: 'metrics-test-queue' });
    expect(oldest).toHaveLength(1);
    expect(oldest[0]!.value).toBeGreaterThanOrEqual(0);
    const emails = Object.fromEntries(
      samplesOf(samples, 'kadai_emails').map((s) => [s.labels.status, s.value]),
    );
    expect(emails).toEqual({ pending: 2, sent: 1, failed: 1, kept: 0 });
  });

  it('drops only the metrics of a read that fails, and says so', async () => {
    // pg-boss's tables renamed away for the scrape, as if its schema were not there yet.
    await t.database.query('ALTER SCHEMA pgboss RENAME TO pgboss_away');
    let samples;
    try {
      const answer = await scrape();
      expect(answer.status).toBe(200);
      samples = parseMetrics(String(answer.body));
    } finally {
      await t.database.query('ALTER SCHEMA pgboss_away RENAME TO pgboss');
    }
    expect(samplesOf(samples, 'kadai_queue_jobs')).toEqual([]);
    expect(samplesOf(samples, 'kadai_queue_oldest_waiting_seconds')).toEqual([]);
    expect(samplesOf(samples, 'kadai_metrics_read_failures_total', { source: 'queues' })[0]?.value).toBe(1);
    expect(samplesOf(samples, 'kadai_emails')).toHaveLength(4);
    expect(samplesOf(samples, 'kadai_http_requests_total').length).toBeGreaterThan(0);
  });

  it('is served by a kernel host too, with its kernels', async () => {
    const host = await buildKernelHostApp({ config: t.config, database: t.database, logger: false });
    try {
      expect((await host.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const answer = await host.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(answer.statusCode).toBe(200);
      const samples = parseMetrics(answer.body);
      expect(samplesOf(samples, 'kadai_kernels_running')[0]?.value).toBe(0);
      expect(samplesOf(samples, 'kadai_kernels_max')[0]?.value).toBe(t.config.WORKBOOK_MAX_KERNELS);
      expect(
        samplesOf(samples, 'kadai_http_requests_total', { route: '/metrics', status: '401' }),
      ).toHaveLength(1);
      expect(samplesOf(samples, 'process_resident_memory_bytes')).toHaveLength(1);
      // A kernel host reads no queue and no outbox.
      expect(samplesOf(samples, 'kadai_queue_jobs')).toEqual([]);
      expect(samplesOf(samples, 'kadai_emails')).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
