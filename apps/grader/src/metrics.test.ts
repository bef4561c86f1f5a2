import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGradingMetrics,
  createMetricsRegistry,
  hasMetricsToken,
  measurePaired,
  measureSandbox,
  serveMetrics,
  type MetricsServer,
  type Registry,
} from './metrics.ts';
import type { PairedResult, SandboxResult } from './types.ts';

// The grader's metrics (issue 41): the token check every /metrics uses, the grader's own metrics
// server, and what an attempt and a sandbox run add.

const TOKEN = 'grader-metrics-token-0123456';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

const result = (fields: Partial<SandboxResult> = {}): SandboxResult => ({
  exitCode: 0,
  signal: null,
  timeMs: 40,
  cpuMs: 30,
  memoryKb: 9000,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  limit: null,
  files: [],
  ...fields,
});

/** `name{labels} value` lines of the registry's text, comments left out. */
async function lines(registry: Registry, prefix: string): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith(prefix));
}

describe('hasMetricsToken', () => {
  it('takes exactly `Bearer <token>`, the scheme in either case', () => {
    expect(hasMetricsToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasMetricsToken(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(1)}`,
      `Bearer ${TOKEN}0`,
      `Bearer ${TOKEN} ${TOKEN}`,
    ])
      expect([header, hasMetricsToken(header, TOKEN)]).toEqual([header, false]);
  });
});

describe('the grader’s metrics server', () => {
  let server: MetricsServer;
  let registry: Registry;
  let base: string;
  beforeAll(async () => {
    registry = createMetricsRegistry();
    const metrics = createGradingMetrics(registry);
    metrics.attemptStarted()('completed');
    server = await serveMetrics({ registry, port: 0, host: '127.0.0.1', token: TOKEN, log: quiet });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());

  it('serves /metrics with the token, and nothing else', async () => {
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await ok.text();
    expect(text).toContain('kadai_grading_attempts_total{outcome="completed"} 1');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');

    const refused = await fetch(`${base}/metrics`, {
      headers: { authorization: 'Bearer nope-nope-nope-nope' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      404,
    );
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('grading metrics', () => {
  it('count attempts by outcome and time those that did work', async () => {
    const registry = createMetricsRegistry();
    const metrics = createGradingMetrics(registry);
    const first = metrics.attemptStarted();
    const second = metrics.attemptStarted();
    expect(await lines(registry, 'kadai_grading_in_progress')).toEqual(['kadai_grading_in_progress 2']);
    first('completed');
    second('skipped');
    metrics.attemptStarted()('retry');
    expect(await lines(registry, 'kadai_grading_attempts_total')).toEqual([
      'kadai_grading_attempts_total{outcome="completed"} 1',
      'kadai_grading_attempts_total{outcome="skipped"} 1',
      'kadai_grading_attempts_total{outcome="retry"} 1',
    ]);
    expect(await lines(registry, 'kadai_grading_attempt_duration_seconds_count')).toEqual([
      'kadai_grading_attempt_duration_seconds_count{outcome="completed"} 1',
      'kadai_grading_attempt_duration_seconds_count{outcome="retry"} 1',
    ]);
    expect(await lines(registry, 'kadai_grading_in_progress')).toEqual(['kadai_grading_in_progress 0']);
  });

  it('count sandbox runs by result with their CPU and wall time', async () => {
    const registry = createMetricsRegistry();
    const metrics = createGradingMetrics(registry);
    const run = measureSandbox(async (request) => {
      if (request.stdin === 'fail') throw new Error('bwrap: no permission');
      return request.stdin === 'loop' ? result({ limit: 'cpu', cpuMs: 2000, timeMs: 2100 }) : result();
    }, metrics);
    await run({ files: [], stdin: '' });
    await run({ files: [], stdin: 'loop' });
    await expect(run({ files: [], stdin: 'fail' })).rejects.toThrow('bwrap');
    const aborted = new AbortController();
    aborted.abort(new Error('grader stopped'));
    await expect(run({ files: [], stdin: 'fail', signal: aborted.signal })).rejects.toThrow();
    const paired = measurePaired(
      async (): Promise<PairedResult> => ({
        ...result({ cpuMs: 100, timeMs: 500 }),
        worker: {
          stdout: '',
          stderr: '',
          stdoutTruncated: false,
          stderrTruncated: false,
          cpuMs: 150,
          memoryKb: null,
          killedFor: null,
        },
      }),
      metrics,
    );
    await paired({ main: { files: [] }, worker: { files: [], argv: [] } });

    expect(await lines(registry, 'kadai_sandbox_runs_total')).toEqual([
      'kadai_sandbox_runs_total{result="ok"} 2',
      'kadai_sandbox_runs_total{result="cpu"} 1',
      'kadai_sandbox_runs_total{result="error"} 1',
      'kadai_sandbox_runs_total{result="aborted"} 1',
    ]);
    // CPU: 0.03 s, 2 s and the pair's 0.1 + 0.15 s; none for runs that failed.
    expect(await lines(registry, 'kadai_sandbox_cpu_seconds_count')).toEqual([
      'kadai_sandbox_cpu_seconds_count 3',
    ]);
    expect(await lines(registry, 'kadai_sandbox_cpu_seconds_sum')).toEqual([
      'kadai_sandbox_cpu_seconds_sum 2.28',
    ]);
    expect(await lines(registry, 'kadai_sandbox_wall_seconds_count')).toEqual([
      'kadai_sandbox_wall_seconds_count 3',
    ]);
    expect(await lines(registry, 'kadai_sandbox_wall_seconds_bucket{le="0.5"}')).toEqual([
      'kadai_sandbox_wall_seconds_bucket{le="0.5"} 2',
    ]);
  });
});
