import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createGradingMetrics,
  createMetricsRegistry,
  registerPoolGauges,
  serveMetrics as serveGraderMetrics,
  type MetricsServer,
  type Registry,
} from '@kadai/grader/metrics';
import { enqueueGrading } from '../features/submissions/grading.ts';
import { createUser, tokenFor } from '../../test/factories.ts';
import { createGradingWorld, createSubmission, waitForSubmission } from '../../test/grading-fixtures.ts';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  PROMETHEUS_APT_COMMAND,
  isPrometheusInstalled,
  startPrometheus,
  type Prometheus,
} from '../../test/peers/prometheus.ts';

// A real Prometheus (Debian's 2.42) scrapes an API and a grader's metrics server, each behind its
// token, as deploy/prometheus.yml sets it up; its query API then answers with the API's request counter
// and the grading histograms (issue 41, "Tests").

const TOKEN = 'prometheus-test-token-0123456';
const installed = isPrometheusInstalled();
if (!installed)
  console.warn(
    `Prometheus is not installed: the test against it is skipped. Run as root:\n  sudo ${PROMETHEUS_APT_COMMAND}`,
  );

describe.skipIf(!installed)(
  installed
    ? 'a real Prometheus scraping an API and a grader'
    : `a real Prometheus (skipped: ${PROMETHEUS_APT_COMMAND})`,
  () => {
    let t: TestApp;
    let grader: MetricsServer;
    let graderRegistry: Registry;
    let prometheus: Prometheus;
    beforeAll(async () => {
      // The grader counts on a registry of its own, served as `npm run grader` serves it.
      graderRegistry = createMetricsRegistry();
      // Its pool, as `npm run grader` reports its own (the test's grader shares the app's database).
      registerPoolGauges(graderRegistry, () => ({ total: 2, idle: 1, waiting: 0, max: 4 }));
      t = await createTestApp({
        env: { METRICS_TOKEN: TOKEN },
        grader: { metrics: createGradingMetrics(graderRegistry) },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      grader = await serveGraderMetrics({
        registry: graderRegistry,
        port: 0,
        host: '127.0.0.1',
        token: TOKEN,
        log: { info: () => {}, warn: () => {}, error: () => {} },
      });
      const address = t.app.server.address();
      const apiPort = typeof address === 'object' && address !== null ? address.port : 0;
      prometheus = await startPrometheus([
        { job: 'kadai-api', address: `127.0.0.1:${apiPort}`, token: TOKEN },
        { job: 'kadai-grader', address: `127.0.0.1:${grader.port}`, token: TOKEN },
      ]);
    });
    afterAll(async () => {
      await prometheus?.stop();
      await grader?.close();
      await t?.close();
    });

    /** Asks Prometheus until `promql` has a series with a value above 0 (scrapes come every second). */
    async function untilPositive(promql: string) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const series = await prometheus.query(promql);
        if (series.some((s) => s.value > 0)) return series;
        if (Date.now() > deadline) throw new Error(`Prometheus had no data for ${promql} within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }

    it('stores the API’s requests by route template and the grading histograms', async () => {
      const user = await createUser(t);
      expect((await call(t, 'GET', '/api/Course/', { token: await tokenFor(t, user) })).status).toBe(200);
      const world = await createGradingWorld(t, [{ stdin: '2 3\n', expected_stdout: '5\n' }]);
      const id = await createSubmission(t, world, {
        'main.py': 'a, b = map(int, input().split())\nprint(a + b)\n',
      });
      await enqueueGrading(t.ctx, [id]);
      expect((await waitForSubmission(t, id)).status).toBe('Completed');

      // Both targets are up: Prometheus sent the token each asks for.
      for (const job of ['kadai-api', 'kadai-grader'])
        expect((await untilPositive(`up{job="${job}"}`)).map((x) => x.value)).toEqual([1]);
      const requests = await untilPositive(
        'sum by (route, status) (kadai_http_requests_total{job="kadai-api", route="/api/Course/"})',
      );
      expect(requests).toEqual([{ metric: { route: '/api/Course/', status: '200' }, value: 1 }]);
      const attempts = await untilPositive(
        'kadai_grading_attempt_duration_seconds_count{job="kadai-grader", outcome="completed"}',
      );
      expect(attempts.map((s) => s.value)).toEqual([1]);
      // The syntax check and the one test case, each a sandbox run with its CPU time.
      const runs = await untilPositive('kadai_sandbox_cpu_seconds_count{job="kadai-grader"}');
      expect(runs.map((s) => s.value)).toEqual([2]);
      const p95 = await prometheus.query(
        'histogram_quantile(0.95, sum by (le) (kadai_sandbox_wall_seconds_bucket{job="kadai-grader"}))',
      );
      expect(p95).toHaveLength(1);
      expect(p95[0]!.value).toBeGreaterThan(0);
    });

    it('accepts deploy/prometheus.yml and its alert rules (promtool)', () => {
      const deploy = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
      const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-promtool-'));
      try {
        // The configuration names the token's file on a Prometheus host; here, one of the test's own.
        const tokenFile = path.join(dir, 'kadai-metrics-token');
        writeFileSync(tokenFile, TOKEN);
        const config = readFileSync(path.join(deploy, 'prometheus.yml'), 'utf8');
        expect(config).toContain('/etc/prometheus/kadai-metrics-token');
        writeFileSync(
          path.join(dir, 'prometheus.yml'),
          config.replaceAll('/etc/prometheus/kadai-metrics-token', tokenFile),
        );
        copyFileSync(path.join(deploy, 'kadai-alerts.yml'), path.join(dir, 'kadai-alerts.yml'));
        const out = execFileSync('promtool', ['check', 'config', 'prometheus.yml'], {
          cwd: dir,
          encoding: 'utf8',
        });
        expect(out).toContain('SUCCESS: 1 rule files found');
        expect(out).toMatch(/SUCCESS: \d+ rules found/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('answers every query of deploy/grafana-dashboard.json; the dashboard and alerts name stored metrics', async () => {
      const file = fileURLToPath(new URL('../../../../deploy/grafana-dashboard.json', import.meta.url));
      const Dashboard = z.object({
        panels: z.array(
          z.object({ title: z.string(), targets: z.array(z.object({ expr: z.string() })).optional() }),
        ),
      });
      const dashboard = Dashboard.parse(JSON.parse(readFileSync(file, 'utf8')));
      const queries = dashboard.panels.flatMap((panel) =>
        (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
      );
      expect(queries.length).toBeGreaterThan(20);
      // Scraped at least once by now (the test above waited for both targets).
      await untilPositive('up{job="kadai-grader"}');
      const stored = new Set(await prometheus.metricNames());
      for (const { panel, expr } of queries) {
        // Grafana's variables, as it would fill them in.
        const promql = expr.replaceAll('$__rate_interval', '1m').replaceAll('$api_job', 'kadai-api');
        expect([panel, await prometheus.check(promql)]).toEqual([panel, { status: 'success' }]);
        for (const [name] of promql.matchAll(/\b(?:kadai|process|nodejs)_[a-z0-9_]+/g)) {
          expect([panel, name, stored.has(name)]).toEqual([panel, name, true]);
        }
      }
      // The alert rules name only metrics that exist too (promtool checks their syntax, not their names);
      // a counter of failures has no series before the first, so the names the processes declare count.
      const scrapes = [
        String((await call(t, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).body),
        await graderRegistry.metrics(),
      ];
      const declared = new Set(
        scrapes.flatMap((text) => [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!)),
      );
      const rules = readFileSync(
        fileURLToPath(new URL('../../../../deploy/kadai-alerts.yml', import.meta.url)),
        'utf8',
      );
      for (const [name] of rules.matchAll(/\b(?:kadai|process|nodejs)_[a-z0-9_]+/g)) {
        const known = stored.has(name) || declared.has(name.replace(/_(bucket|sum|count)$/, ''));
        expect(['kadai-alerts.yml', name, known]).toEqual(['kadai-alerts.yml', name, true]);
      }
    });
  },
);
