import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/*
 * A real Prometheus for tests: Debian's `prometheus` (2.42), started on 127.0.0.1 with a configuration
 * of the test's own in a fresh temporary folder (its database there too), scraping every second.
 * The configuration is written as JSON, which YAML reads as it is: no value is spliced into YAML text.
 */

const PROMETHEUS = '/usr/bin/prometheus';
export const PROMETHEUS_APT_COMMAND = 'apt-get update && apt-get install -y prometheus';

export function isPrometheusInstalled(): boolean {
  return existsSync(PROMETHEUS);
}

export interface ScrapeTarget {
  job: string;
  /** `127.0.0.1:<port>` */
  address: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

export interface Prometheus {
  url: string;
  /** `GET /api/v1/query` at this moment: the result's series (labels and value). */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** `GET /api/v1/query` as Prometheus answers it: `success`, or `error` with why (a query that does not parse). */
  check(promql: string): Promise<{ status: string; error?: string }>;
  /** The names of every series stored so far. */
  metricNames(): Promise<string[]>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const QueryAnswer = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z.array(
      z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) }),
    ),
  }),
});

const Checked = z.object({ status: z.string(), error: z.string().optional() });
const Names = z.object({ status: z.literal('success'), data: z.array(z.string()) });

export async function startPrometheus(targets: ScrapeTarget[]): Promise<Prometheus> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kadai-prometheus-'));
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: targets.map((target) => ({
      job_name: target.job,
      metrics_path: '/metrics',
      ...(target.token ? { authorization: { type: 'Bearer', credentials: target.token } } : {}),
      static_configs: [{ targets: [target.address] }],
    })),
  };
  await writeFile(path.join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    log = (log + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(forced);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with ${child.exitCode}: ${log}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within 30 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const answer = QueryAnswer.parse(await response.json());
      return answer.data.result.map((series) => ({ metric: series.metric, value: Number(series.value[1]) }));
    },
    async check(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      return Checked.parse(await response.json());
    },
    async metricNames() {
      const response = await fetch(`${url}/api/v1/label/__name__/values`);
      return Names.parse(await response.json()).data;
    },
    stop,
  };
}
