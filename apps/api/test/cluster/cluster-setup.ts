// The cluster of cluster.test.ts (docs/deploy.md): how its processes start, on which store, and what is
// checked of every round. The tests themselves are in cluster.test.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_S3_CREDENTIALS, startTestS3Server, type TestS3Server } from '@kadai/storage/testing';
import { expect } from 'vitest';
import {
  api,
  createDatabase,
  dropDatabase,
  freePort,
  query,
  startService,
  waitFor,
  type Service,
} from './processes.ts';

export const STARTUP_ROUNDS = Number(process.env.CLUSTER_STARTUP_ROUNDS ?? 3);
export const OUTAGE_MS = Number(process.env.CLUSTER_OUTAGE_SECONDS ?? 20) * 1000;
export const SUBMISSIONS = 50;
export const PASSWORD = 'demo-password-2026';
const SECRET = randomBytes(32).toString('hex');
/** Start-up round n runs on STORES[n-1] (the last, where the other tests run, on postgres). */
const STORES = ['local', 's3', 'postgres'] as const;
export type Store = (typeof STORES)[number];
export const storeOf = (round: number): Store =>
  round === STARTUP_ROUNDS ? 'postgres' : STORES[(round - 1) % 3]!;

export interface Cluster {
  name: string;
  url: string;
  apis: Service[];
  apiUrls: string[];
  grader: Service;
  kernels: Service[];
  all(): Service[];
}

export const logDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-cluster-'));
const dataDirs: string[] = [];
const databases: string[] = [];
// The local store works across processes only on a folder they all see (one machine, or a shared mount).
const sharedFiles = mkdtempSync(path.join(os.tmpdir(), 'kadai-cluster-files-'));
let s3: TestS3Server | null = null;
let store: Store = 'postgres';
/** The store's variables, the same for every process of the round. */
function storageEnv(): Record<string, string> {
  if (store === 'local') return { STORAGE: store, STORAGE_DIR: sharedFiles };
  if (store === 'postgres' || !s3) return { STORAGE: store };
  return {
    STORAGE: store,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
  };
}
const newDataDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-cluster-data-'));
  dataDirs.push(dir);
  return dir;
};

export function graderEnv(databaseUrl: string, round: number) {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: newDataDir(),
    ...storageEnv(),
    GRADER_CONCURRENCY: '2',
    GRADER_HEARTBEAT_SECONDS: '1',
    GRADER_ID: `cluster-grader-${round}`,
  };
}

/** A workbook kernel host (`npm run kernels`): the APIs run no kernels themselves. */
export async function startKernelHost(name: string, databaseUrl: string): Promise<Service> {
  return startService(
    name,
    'scripts/kernels.mjs',
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: newDataDir(),
      JWT_SECRET: SECRET,
      HOST: '127.0.0.1',
      KERNEL_HOST_PORT: String(await freePort()),
      WORKBOOK_MAX_KERNELS: '4',
      LOG_LEVEL: 'warn',
      ...storageEnv(),
    },
    logDir,
  );
}

/** Two APIs, a grader and a kernel host, all started at once on a new empty database. */
export async function startCluster(round: number): Promise<Cluster> {
  store = storeOf(round);
  const name = `kadai_cluster_${process.pid}_${round}_${randomBytes(3).toString('hex')}`;
  databases.push(name);
  const url = await createDatabase(name);
  const ports = [await freePort(), await freePort()];
  const apis = ports.map((port, i) =>
    startService(
      `r${round}-api${i}`,
      'scripts/start.mjs',
      {
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: '4',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: newDataDir(),
        JWT_SECRET: SECRET,
        LOG_LEVEL: 'warn',
        RUN_GRADER: 'false',
        SKIP_WEB_BUILD: 'true',
        INSTALL_SYSTEM_PACKAGES: 'false',
        WORKBOOK_MAX_KERNELS: '0',
        ...storageEnv(),
      },
      logDir,
    ),
  );
  const grader = startService(`r${round}-grader`, 'scripts/grader.mjs', graderEnv(url, round), logDir);
  const kernels = [await startKernelHost(`r${round}-kernels`, url)];
  const cluster: Cluster = {
    name,
    url,
    apis,
    apiUrls: ports.map((port) => `http://127.0.0.1:${port}`),
    grader,
    kernels,
    all: () => [...cluster.apis, cluster.grader, ...cluster.kernels],
  };
  for (const base of cluster.apiUrls) {
    await waitFor(
      `${base} healthy`,
      async () => ((await api(base, 'GET', '/api/health')).status === 200 ? true : undefined),
      90_000,
      500,
    );
  }
  await waitFor(
    'the kernel host registered',
    async () => {
      const rows = await query<{ n: number }>(
        url,
        `SELECT count(*)::int AS n FROM kernel_hosts WHERE kind = 'kernels'`,
      );
      return (rows[0]?.n ?? 0) > 0 ? true : undefined;
    },
    60_000,
    500,
  );
  await waitFor(
    'the grader ready',
    async () => {
      const rows = await query<{ ok: boolean }>(url, `SELECT sandbox_ok AS ok FROM grader_hosts`);
      return rows.some((r) => r.ok) ? true : undefined;
    },
    60_000,
    500,
  );
  return cluster;
}

/**
 * Nothing a process printed may show a bug: an unhandled rejection (logged as BUG by the services'
 * safety net) or an uncaught exception. A deadlock that was retried is logged and fine.
 */
export function expectCleanLogs(services: Service[]) {
  for (const service of services) {
    expect(service.log(), service.name).not.toMatch(
      /BUG unhandled rejection|UnhandledPromiseRejection|uncaught/i,
    );
  }
}

/**
 * An editor uploads a file to a demo assignment through the first API; the second lists it and serves its
 * bytes (the store is all they share for it).
 */
export async function expectFileAcross(cluster: Cluster, title: string): Promise<void> {
  const [a, b] = cluster.apiUrls as [string, string];
  const editor = await signIn(a, 'editor@example.com');
  const courses = await api(a, 'GET', '/api/Course/', { token: editor });
  const courseIds = (courses.body as { results: { id: number }[] }).results.map((c) => c.id);
  let target: { assignment: number; course: number } | null = null;
  for (const course of courseIds) {
    const list = await api(a, 'GET', `/api/Assignment/CourseSpecific/?course_id=${course}`, {
      token: editor,
    });
    const found = (list.body as { results: { id: number; title: string }[] }).results.find(
      (x) => x.title === title,
    );
    if (found) target = { assignment: found.id, course };
  }
  expect(target, `the demo assignment ${title}`).not.toBeNull();
  const url = `/api/Assignment/${target!.assignment}/${target!.course}/FileUpload/`;
  const bytes = randomBytes(300_000);
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'numbers.bin');
  const uploaded = await api(a, 'POST', url, { token: editor, form });
  expect(uploaded.status, `${store}: ${JSON.stringify(uploaded.body)}`).toBe(201);
  const listed = await api(b, 'GET', url, { token: editor });
  const file = (listed.body as { filename: string; url: string }[]).find(
    (f) => f.filename === 'numbers.bin',
  )!;
  const link = new URL(file.url, b);
  const downloaded = await fetch(new URL(link.pathname + link.search, b));
  expect(downloaded.status, store).toBe(200);
  expect(Buffer.from(await downloaded.arrayBuffer()).equals(bytes), store).toBe(true);
}

export async function signIn(base: string, email: string): Promise<string> {
  const reply = await api(base, 'POST', '/api/Auth/Token/', { body: { email, password: PASSWORD } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { access: string }).access;
}

/** Starts the test S3 server when a start-up round of `rounds` runs on s3. */
export async function startS3For(rounds: number): Promise<void> {
  if (Array.from({ length: rounds }, (_, i) => storeOf(i + 1)).includes('s3')) {
    s3 = await startTestS3Server('kadai-cluster');
  }
}

/** Drops every database and folder made, and the logs unless kept (a failure, or CLUSTER_KEEP_LOGS). */
export async function removeAll(keepLogs: boolean): Promise<void> {
  for (const name of databases) await dropDatabase(name).catch(() => {});
  await s3?.close();
  for (const dir of [...dataDirs, sharedFiles]) rmSync(dir, { recursive: true, force: true });
  if (!keepLogs && process.env.CLUSTER_KEEP_LOGS !== 'true') rmSync(logDir, { recursive: true, force: true });
}
