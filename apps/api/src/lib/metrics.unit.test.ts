import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@kadai/grader/metrics';
import { parseMetrics, samplesOf } from '../../test/metrics-text.ts';
import { registerGauges } from './metrics.ts';

// The scrape-time gauges apart from a database: a read that never answers or fails leaves out its own
// metrics and is counted; the scrape itself always answers.

const warnings: unknown[] = [];
const log = { warn: (fields: object) => warnings.push(fields) };

describe('registerGauges', () => {
  it('leaves out the metrics of a read that hangs or fails, never the scrape', async () => {
    const registry = createMetricsRegistry();
    let queueReads = 0;
    registerGauges(registry, {
      log,
      pool: () => null,
      kernels: () => ({ running: 2, max: 5 }),
      inFlight: () => 7,
      queues: () => {
        queueReads += 1;
        return new Promise(() => {});
      },
      emails: () => Promise.reject(new Error('relation "email_outbox" does not exist')),
      readTimeoutMs: 20,
    });
    const samples = parseMetrics(await registry.metrics());
    expect(samplesOf(samples, 'kadai_queue_jobs')).toEqual([]);
    expect(samplesOf(samples, 'kadai_emails')).toEqual([]);
    expect(samplesOf(samples, 'kadai_db_pool_connections')).toEqual([]);
    expect(samplesOf(samples, 'kadai_kernels_running')[0]?.value).toBe(2);
    expect(samplesOf(samples, 'kadai_http_requests_in_flight')[0]?.value).toBe(7);
    expect(
      Object.fromEntries(
        samplesOf(samples, 'kadai_metrics_read_failures_total').map((s) => [s.labels.source, s.value]),
      ),
    ).toEqual({ queues: 1, emails: 1 });
    // Two gauges and the failure count read the queues once per scrape.
    expect(queueReads).toBe(1);
    expect(warnings).toHaveLength(2);
  });

  it('reports a pool when there is one', async () => {
    const registry = createMetricsRegistry();
    registerGauges(registry, {
      log,
      pool: () => ({ total: 4, idle: 1, waiting: 3, max: 8 }),
      kernels: () => ({ running: 0, max: 0 }),
    });
    const samples = parseMetrics(await registry.metrics());
    expect(
      ['connections', 'idle_connections', 'waiting_requests', 'max_connections'].map(
        (name) => samplesOf(samples, `kadai_db_pool_${name}`)[0]?.value,
      ),
    ).toEqual([4, 1, 3, 8]);
  });
});
