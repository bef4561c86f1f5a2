// Kadai on several machines, as an operator runs it (issue 19, docs/deploy.md): two API instances, a
// grader and a workbook kernel host started at the same moment on one empty PostgreSQL database (three
// times, on the local, s3 and postgres file stores in turn), behind a round-robin proxy without sticky
// sessions. Checks files across instances on each store, a workbook run through either instance and
// moved when its host stops, exactly-once grading through a SIGKILL, and a 20 s database outage that
// every process survives. Needs a PostgreSQL server (TEST_DATABASE_URL's, or 127.0.0.1:5432): `npm
// test` runs it there; without one it is skipped, saying so.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_S3_CREDENTIALS, startTestS3Server, type TestS3Server } from '@kadai/storage/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDatabase,
  cutDatabase,
  dropDatabase,
  freePort,
  query,
  restoreDatabase,
  roundRobinProxy,
  serverReachable,
  startService,
  stopAll,
  started,
  waitFor,
  type Proxy,
  type Service,
} from './processes.ts';

const reachable = await serverReachable();
if (!reachable)
  console.warn('cluster test skipped: no PostgreSQL server on 127.0.0.1:5432 or TEST_DATABASE_URL');

const STARTUP_ROUNDS = Number(process.env.CLUSTER_STARTUP_ROUNDS ?? 3);
const OUTAGE_MS = Number(process.env.CLUSTER_OUTAGE_SECONDS ?? 20) * 1000;
const SUBMISSIONS = 50;
const PASSWORD = 'demo-password-2026';
const SECRET = randomBytes(32).toString('hex');
/** Start-up round n runs on STORES[n-1] (the last, where the other tests run, on postgres). */
const STORES = ['local', 's3', 'postgres'] as const;
type Store = (typeof STORES)[number];
const storeOf = (round: number): Store => (round === STARTUP_ROUNDS ? 'postgres' : STORES[(round - 1) % 3]!);

interface Cluster {
  name: string;
  url: string;
  apis: Service[];
  apiUrls: string[];
  grader: Service;
  kernels: Service[];
  all(): Service[];
}

const logDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-cluster-'));
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

function graderEnv(databaseUrl: string, round: number) {
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
async function startKernelHost(name: string, databaseUrl: string): Promise<Service> {
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
async function startCluster(round: number): Promise<Cluster> {
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
function expectCleanLogs(services: Service[]) {
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
async function expectFileAcross(cluster: Cluster, title: string): Promise<void> {
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

async function signIn(base: string, email: string): Promise<string> {
  const reply = await api(base, 'POST', '/api/Auth/Token/', { body: { email, password: PASSWORD } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { access: string }).access;
}

describe.skipIf(!reachable)('a cluster of two APIs and a grader on one PostgreSQL', () => {
  let cluster: Cluster;
  let proxy: Proxy;
  let course = 0;
  const assignments: { id: number; title: string; tests: number }[] = [];
  const students = ['student1@example.com', 'student2@example.com', 'student3@example.com'];
  const tokens = new Map<string, string>();
  const submitted: number[] = [];

  beforeAll(async () => {
    // Start-up together is what broke (a pg-boss deadlock): it is repeated on fresh databases.
    if (Array.from({ length: STARTUP_ROUNDS }, (_, i) => storeOf(i + 1)).includes('s3')) {
      s3 = await startTestS3Server('kadai-cluster');
    }
    for (let round = 1; round < STARTUP_ROUNDS; round++) {
      const trial = await startCluster(round);
      // Each round on another store: a file crosses instances on local (one shared folder) and s3.
      await expectFileAcross(trial, 'Hello, world');
      const codes = await Promise.all(trial.all().map((s) => s.stop()));
      expectCleanLogs(trial.all());
      expect(codes, `round ${round} exit codes`).toEqual(trial.all().map(() => 0));
      await dropDatabase(trial.name);
    }
    cluster = await startCluster(STARTUP_ROUNDS);
    proxy = await roundRobinProxy(cluster.apiUrls);
    for (const email of students) tokens.set(email, await signIn(proxy.url, email));
    const student = tokens.get(students[0]!)!;
    const courses = await api(proxy.url, 'GET', '/api/Course/', { token: student });
    course = (courses.body as { results: { id: number; title: string }[] }).results[0]!.id;
    const list = await api(proxy.url, 'GET', `/api/Assignment/CourseSpecific/?course_id=${course}`, {
      token: student,
    });
    for (const a of (list.body as { results: { id: number; title: string; test_case_count: number }[] })
      .results) {
      if (a.title === 'Hello, world' || a.title === 'Sum of two numbers') {
        assignments.push({ id: a.id, title: a.title, tests: a.test_case_count });
      }
    }
    expect(assignments).toHaveLength(2);
  }, 600_000);

  // A failure keeps every process's log and prints the end of each: the why is usually in there.
  let failed = false;
  afterEach((context) => {
    if (context.task.result?.state !== 'fail') return;
    failed = true;
    for (const service of started()) {
      const tail = service.log().split('\n').slice(-25).join('\n');
      console.error(`--- ${service.name} (${service.logFile}) ---\n${tail}`);
    }
  });

  afterAll(async () => {
    await proxy?.close();
    // Every process, including those of a start-up round that failed half-way.
    await stopAll();
    for (const name of databases) await dropDatabase(name).catch(() => {});
    await s3?.close();
    for (const dir of [...dataDirs, sharedFiles]) rmSync(dir, { recursive: true, force: true });
    if (!failed && process.env.CLUSTER_KEEP_LOGS !== 'true') rmSync(logDir, { recursive: true, force: true });
  }, 120_000);

  it('serves a file uploaded through one instance from the other on postgres (graders read it below)', async () => {
    await expectFileAcross(cluster, 'Sum of two numbers');
  });

  it('runs a workbook opened through one instance from the other, and moves it when its host stops', async () => {
    const [a, b] = cluster.apiUrls as [string, string];
    const token = tokens.get(students[0]!)!;
    const configs = await api(a, 'GET', `/api/WorkbookConfig/?course=${course}`, { token });
    const config = (configs.body as { results: { id: number }[] }).results[0]!.id;
    const opened = await api(a, 'POST', '/api/v1/workbook', { token, body: { course, config } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const id = (opened.body as { workbookId: number }).workbookId;
    const run = async (base: string, code: string) => {
      const reply = await api(base, 'POST', `/api/v1/workbook/${id}/execute`, {
        token,
        body: { cell_id: 'c1', code },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body as { status: string; outputs: { text?: string }[]; kernel_restarted: boolean };
    };
    expect((await run(b, 'x = 41')).status).toBe('ok');
    const second = await run(a, 'print(x + 1)');
    expect(second.outputs.map((o) => o.text ?? '').join('')).toContain('42');
    expect(second.kernel_restarted).toBe(false);

    // Its host leaves (SIGTERM) while another runs: the next call moves the session and says so.
    const spare = await startKernelHost('kernels-spare', cluster.url);
    cluster.kernels.push(spare);
    await waitFor(
      'the spare kernel host registered',
      async () => {
        const rows = await query<{ n: number }>(
          cluster.url,
          `SELECT count(*)::int AS n FROM kernel_hosts WHERE kind = 'kernels'`,
        );
        return (rows[0]?.n ?? 0) >= 2 ? true : undefined;
      },
      60_000,
      500,
    );
    const first = cluster.kernels.shift()!;
    expect(await first.stop()).toBe(0);
    const moved = await run(b, 'print(globals().get("x", "gone"))');
    expect(moved.kernel_restarted).toBe(true);
    expect(moved.outputs.map((o) => o.text ?? '').join('')).toContain('gone');
    expect((await run(a, 'y = 2\nprint(y * 21)')).outputs.map((o) => o.text ?? '').join('')).toContain('42');
    expect((await api(b, 'GET', `/api/v1/workbook/${id}`, { token })).body).toMatchObject({ status: 'live' });
  }, 180_000);

  async function submit(email: string, assignment: { id: number; title: string }): Promise<number> {
    const code =
      assignment.title === 'Hello, world'
        ? 'print("Hello, world!")\n'
        : 'a, b = map(int, input().split())\nprint(a + b)\n';
    const reply = await api(proxy.url, 'POST', '/api/Submission/Submit/', {
      token: tokens.get(email)!,
      body: { assignment_id: assignment.id, course_id: course, code },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return (reply.body as { id: number }).id;
  }

  async function graded(ids: number[], ms: number) {
    return waitFor(
      `${ids.length} submissions graded`,
      async () => {
        const rows = await query<{ id: number; status: string; evaluations: number; tests: number }>(
          cluster.url,
          `SELECT s.id, s.status,
                  (SELECT count(*)::int FROM evaluations e WHERE e.submission_id = s.id) AS evaluations,
                  (SELECT count(*)::int FROM test_cases t WHERE t.assignment_id = s.assignment_id) AS tests
             FROM submissions s WHERE s.id = ANY($1::int[])`,
          [ids],
        );
        const unfinished = rows.filter((r) => ['Pending', 'Scheduled', 'Executing'].includes(r.status));
        return rows.length === ids.length && unfinished.length === 0 ? rows : undefined;
      },
      ms,
      1000,
    );
  }

  // Restarted under the same GRADER_ID, as a supervisor does: before incarnations (issue 36) the
  // killed process's attempts looked alive under the newcomer's heartbeat until GRADING_TIMEOUT (300 s),
  // past this test's wait.
  it('grades 50 submissions exactly once while the grader is killed with SIGKILL and restarted under its id', async () => {
    const batch: number[] = [];
    for (let i = 0; i < SUBMISSIONS; i++) {
      batch.push(await submit(students[i % 3]!, assignments[Math.floor(i / 3) % 2]!));
    }
    submitted.push(...batch);
    await waitFor(
      'some grading under way',
      async () => {
        const [row] = await query<{ n: number }>(
          cluster.url,
          `SELECT count(*)::int AS n FROM submissions WHERE id = ANY($1::int[]) AND status = 'Completed'`,
          [batch],
        );
        return (row?.n ?? 0) >= 5 ? true : undefined;
      },
      120_000,
    );
    await cluster.grader.kill();
    cluster.grader = startService(
      'grader-restarted',
      'scripts/grader.mjs',
      graderEnv(cluster.url, STARTUP_ROUNDS),
      logDir,
    );
    const rows = await graded(batch, 240_000);
    for (const row of rows) {
      expect(row.status, `submission ${row.id}`).toBe('Completed');
      expect(row.evaluations, `submission ${row.id}`).toBe(row.tests);
    }
  }, 400_000);

  it('lives through a 20 s database outage: 503 with Retry-After meanwhile, 200 by itself after', async () => {
    const before = [await submit(students[0]!, assignments[0]!), await submit(students[1]!, assignments[1]!)];
    await cutDatabase(cluster.name);
    const outageEnds = Date.now() + OUTAGE_MS;
    const seen = { health: new Set<number>(), writes: new Set<number>() };
    let checked = 0;
    while (Date.now() < outageEnds - 1000 && checked < 200) {
      checked += 1;
      const health = await api(proxy.url, 'GET', '/api/health');
      seen.health.add(health.status);
      expect(health.body, 'health keeps its JSON body').toMatchObject({
        database: { ok: health.status === 200 },
      });
      if (health.status === 503) expect(health.headers.get('retry-after')).toMatch(/^\d+$/);
      const write = await api(proxy.url, 'POST', '/api/Submission/Submit/', {
        token: tokens.get(students[2]!)!,
        body: { assignment_id: assignments[0]!.id, course_id: course, code: 'print(1)\n' },
      });
      seen.writes.add(write.status);
      if (write.status === 201) before.push((write.body as { id: number }).id);
      else {
        expect(write.status, JSON.stringify(write.body)).toBe(503);
        expect(write.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
        expect(write.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      // Reads, a sign-in and a page of the app: refused alike, or served when they need no database.
      const others = await Promise.all([
        api(proxy.url, 'GET', '/api/Course/', { token: tokens.get(students[0]!)! }),
        api(proxy.url, 'POST', '/api/Auth/Token/', { body: { email: students[1], password: PASSWORD } }),
        api(proxy.url, 'GET', `/api/Assignment/CourseSpecific/?course_id=${course}`, {
          token: tokens.get(students[1]!)!,
        }),
        api(proxy.url, 'GET', '/api/Config/'),
      ]);
      for (const reply of others) {
        seen.writes.add(reply.status);
        expect([200, 503], JSON.stringify(reply.body)).toContain(reply.status);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(seen.health.has(503)).toBe(true);
    expect(seen.writes.has(500)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));
    await restoreDatabase(cluster.name);

    for (const service of cluster.all())
      expect(service.running(), `${service.name} still running`).toBe(true);
    for (const base of cluster.apiUrls) {
      await waitFor(
        `${base} healthy again`,
        async () => ((await api(base, 'GET', '/api/health')).status === 200 ? true : undefined),
        30_000,
        500,
      );
    }
    const after = [await submit(students[2]!, assignments[1]!)];
    const rows = await graded([...before, ...after], 180_000);
    for (const row of rows) expect(row.status, `submission ${row.id}`).toBe('Completed');
    for (const service of cluster.all())
      expect(service.running(), `${service.name} still running`).toBe(true);
  }, 400_000);

  it('stops every process cleanly on SIGTERM, with nothing unhandled in any log', async () => {
    const services = cluster.all();
    const codes = await Promise.all(services.map((s) => s.stop()));
    expect(codes).toEqual(services.map(() => 0));
    expectCleanLogs(services);
  }, 120_000);
});
