// `npm run bench:grading`: the deadline spike. 600 submissions of 5 light input/output tests arrive
// evenly over 60 s and go through the real pipeline — committed row, enqueueGrading, pg-boss, the
// grader (in this process, as in the embedded default), bubblewrap, evaluations and score in the
// database. Prints sandbox runs/s, submissions/s, p50/p99 submit → final score, and lost submissions.
// Targets on the 2-core box: zero lost, ≥ 20 sandbox runs/s, p99 < 30 s.
//
// Embedded PGlite by default; PostgreSQL with --pg (127.0.0.1:5432) or when DATABASE_URL is set
// (a fresh database is created on that server and dropped afterwards).
// Knobs: BENCH_SUBMISSIONS (600), BENCH_SECONDS (60), BENCH_CONCURRENCY (0 = cores),
// BENCH_WORKERS, BENCH_BATCH (the grader's pg-boss fetch loops and batch size), BENCH_DRAIN_SECONDS (180).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { runSandboxed, type SandboxRequest } from '@kadai/sandbox';
import { startGrader } from '@kadai/grader/worker';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { startJobQueue } from '../apps/api/src/lib/jobs.ts';
import { createStorage } from '../apps/api/src/lib/storage.ts';
import { SessionCache } from '../apps/api/src/lib/session-cache.ts';
import type { AppContext } from '../apps/api/src/lib/context.ts';
import { enqueueGrading } from '../apps/api/src/features/submissions/grading.ts';
import { percentile } from './stats.ts';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 600);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 180);
const numberOrUndefined = (value: string | undefined) => (value ? Number(value) : undefined);
const usePg = process.argv.includes('--pg') || Boolean(process.env.DATABASE_URL);
const pgServer = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Light tests: read two numbers, print their sum (a correct program passes all five). */
const TESTS = [
  ['1 2', '3'],
  ['10 20', '30'],
  ['-5 5', '0'],
  ['123456 654321', '777777'],
  ['7 8', '15'],
];
const PROGRAM = 'a, b = map(int, input().split())\nprint(a + b)\n';

async function openBenchDatabase(): Promise<{
  database: Database;
  label: string;
  drop: () => Promise<void>;
}> {
  if (!usePg) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-'));
    const database = await openDatabase({ dataDir: dir });
    return {
      database,
      label: 'PGlite (embedded)',
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `kadai_bench_grading_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgServer });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
  return {
    database,
    label: 'PostgreSQL',
    drop: async () => {
      const c = new pg.Client({ connectionString: pgServer });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const { database, label, drop } = await openBenchDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-data-'));
try {
  await migrateDatabase(database);
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    LOG_LEVEL: 'silent',
  });
  const jobs = await startJobQueue(database);
  const log = pino({ level: 'silent' });
  const storage = createStorage(config);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    jobs,
    storage,
    sessions: new SessionCache(0),
    log,
  };

  // One course, one assignment with five tests, one student per submission.
  const q = (text: string, values?: unknown[]) => database.query(text, values);
  const course = await q(`INSERT INTO courses (title) VALUES ('Deadline') RETURNING id`);
  const courseId = Number(course.rows[0]!.id);
  const assignment = await q(`INSERT INTO assignments (title) VALUES ('A + B') RETURNING id`);
  const assignmentId = Number(assignment.rows[0]!.id);
  await q(
    `INSERT INTO assignment_courses (assignment_id, course_id, opens_at, due_at)
     VALUES ($1, $2, now() - interval '1 day', now() + interval '1 day')`,
    [assignmentId, courseId],
  );
  for (const [index, [stdin, expected]] of TESTS.entries()) {
    await q(
      `INSERT INTO test_cases (assignment_id, position, name, kind, points, stdin, expected_stdout)
       VALUES ($1, $2, $3, 'io', 1, $4, $5)`,
      [assignmentId, index, `test ${index + 1}`, stdin, expected],
    );
  }
  await q(
    `INSERT INTO users (email, first_name, last_name)
     SELECT 'bench-' || i || '@example.test', 'Student', i::text FROM generate_series(1, $1) AS i`,
    [SUBMISSIONS],
  );
  const users = (await q(`SELECT id FROM users ORDER BY id`)).rows.map((r) => Number(r.id));

  let sandboxRuns = 0;
  let testRuns = 0;
  let sandboxMs = 0;
  let graderQueries = 0;
  let graderQueryMs = 0;
  // The grader's SQL, timed (the API side and pg-boss use the database directly).
  const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      graderQueries += 1;
      graderQueryMs += performance.now() - t0;
    }
  };
  const graderSql = {
    query: (text: string, values?: unknown[]) => timed(() => database.query(text, values)),
    transaction: <T>(
      fn: (
        query: (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>,
      ) => Promise<T>,
    ) => timed(() => database.transaction(fn)),
  };
  const grader = await startGrader({
    sql: graderSql,
    jobs,
    readAttachment: (key) => storage.read(key),
    log: { info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m) },
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 0),
    gradingTimeoutSeconds: config.GRADING_TIMEOUT,
    workers: numberOrUndefined(process.env.BENCH_WORKERS),
    batchSize: numberOrUndefined(process.env.BENCH_BATCH),
    runSandboxed: async (request: SandboxRequest) => {
      sandboxRuns += 1;
      if (request.stdin !== undefined) testRuns += 1;
      const t0 = performance.now();
      try {
        return await runSandboxed(request);
      } finally {
        sandboxMs += performance.now() - t0;
      }
    },
  });
  if (!grader.sandbox.ok) throw new Error(`no sandbox: ${grader.sandbox.detail}`);
  const slots = grader.status().concurrency;
  console.log(
    `${label}: ${SUBMISSIONS} submissions × ${TESTS.length} tests over ${SECONDS} s, ${slots} sandbox slots, ` +
      `${os.availableParallelism()} cores`,
  );

  // Arrivals: evenly spaced on a fixed schedule (a late one does not push the rest back).
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const ids: number[] = [];
  const submitErrors: string[] = [];
  const interval = (SECONDS * 1000) / SUBMISSIONS;
  const arrivals: Promise<void>[] = [];
  for (let i = 0; i < SUBMISSIONS; i += 1) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    arrivals.push(
      (async () => {
        // What Submission/Submit/ does: the row and its file in one transaction, then queue it.
        const id = await database.transaction(async (query) => {
          const { rows } = await query(
            `INSERT INTO submissions (assignment_id, course_id, user_id) VALUES ($1, $2, $3) RETURNING id`,
            [assignmentId, courseId, users[i]],
          );
          const submissionId = Number(rows[0]!.id);
          const bytes = Buffer.from(PROGRAM);
          await query(
            `INSERT INTO submission_files (submission_id, filename, content, size) VALUES ($1, 'main.py', $2, $3)`,
            [submissionId, bytes, bytes.byteLength],
          );
          return submissionId;
        });
        ids.push(id);
        await enqueueGrading(ctx, [id]);
      })().catch((error: unknown) => {
        submitErrors.push(error instanceof Error ? error.message : String(error));
      }),
    );
    if (i % 100 === 99) {
      const done = await q(`SELECT count(*)::int AS n FROM submissions WHERE status = 'Completed'`);
      console.log(
        `  ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s: ${i + 1} submitted, ` +
          `${Number(done.rows[0]!.n)} graded, ${sandboxRuns} sandbox runs`,
      );
    }
  }
  await Promise.all(arrivals);
  const arrivedAt = performance.now();

  // Drain: wait until every submission has its final score, or give up and count the rest as lost.
  const deadline = arrivedAt + DRAIN_SECONDS * 1000;
  let remaining = SUBMISSIONS;
  while (performance.now() < deadline) {
    const pending = await q(`SELECT count(*)::int AS n FROM submissions WHERE status <> 'Completed'`);
    remaining = Number(pending.rows[0]!.n);
    if (remaining === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const finished = performance.now();
  const cpu = process.cpuUsage(cpuStart);

  const timing = await q(
    `SELECT EXTRACT(EPOCH FROM (graded_at - created_at)) * 1000 AS latency_ms, score
       FROM submissions WHERE status = 'Completed'`,
  );
  const latencies = timing.rows.map((r) => Number(r.latency_ms)).sort((a, b) => a - b);
  const wrongScores = timing.rows.filter((r) => Number(r.score) !== TESTS.length).length;
  const evaluations = await q(`SELECT count(*)::int AS n FROM evaluations`);
  const statuses = await q(
    `SELECT status, count(*)::int AS n FROM submissions GROUP BY status ORDER BY status`,
  );
  const elapsed = (finished - started) / 1000;
  const lost = SUBMISSIONS - latencies.length;
  const runsPerSecond = sandboxRuns / elapsed;
  const p50 = percentile(latencies, 50) / 1000;
  const p99 = percentile(latencies, 99) / 1000;

  console.log('');
  console.table({
    'sandbox runs/s': {
      value: runsPerSecond.toFixed(1),
      note: `${sandboxRuns} runs (${testRuns} tests + syntax checks)`,
    },
    'test runs/s': { value: (testRuns / elapsed).toFixed(1), note: '' },
    'submissions/s': {
      value: (latencies.length / elapsed).toFixed(2),
      note: `${elapsed.toFixed(1)} s first submit → last score`,
    },
    'p50 submit → score': { value: `${p50.toFixed(2)} s`, note: '' },
    'p99 submit → score': {
      value: `${p99.toFixed(2)} s`,
      note: `max ${(latencies.at(-1)! / 1000).toFixed(2)} s`,
    },
    lost: {
      value: String(lost),
      note: statuses.rows.map((r) => `${String(r.status)} ${Number(r.n)}`).join(', '),
    },
    'wrong scores': {
      value: String(wrongScores),
      note: `${Number(evaluations.rows[0]!.n)} evaluations stored`,
    },
    'sandbox run, mean wall': {
      value: `${(sandboxMs / Math.max(1, sandboxRuns)).toFixed(0)} ms`,
      note: `slots busy ${((100 * sandboxMs) / (elapsed * 1000 * slots)).toFixed(0)} % of the time`,
    },
    'grader SQL': {
      value: `${graderQueries} calls`,
      note: `${(graderQueryMs / Math.max(1, graderQueries)).toFixed(1)} ms mean, ${(graderQueryMs / 1000).toFixed(1)} s in all`,
    },
    'load average (1 min)': {
      value: os.loadavg()[0]!.toFixed(2),
      note: 'other work on the machine skews every figure',
    },
    'bench process CPU': {
      value: `${((cpu.user + cpu.system) / 1e6 / elapsed).toFixed(2)} cores`,
      note: 'API side + grader + database (PGlite runs in this process)',
    },
  });
  if (submitErrors.length > 0)
    console.log(`submit errors: ${submitErrors.length}, first: ${submitErrors[0]}`);
  const missed: string[] = [];
  if (lost > 0 || submitErrors.length > 0) missed.push(`${lost} lost`);
  if (wrongScores > 0) missed.push(`${wrongScores} wrong scores`);
  if (runsPerSecond < 20) missed.push('under 20 sandbox runs/s');
  if (!(p99 < 30)) missed.push('p99 not under 30 s');
  console.log(missed.length === 0 ? 'targets met' : `TARGETS MISSED: ${missed.join(', ')}`);
  process.exitCode = missed.length === 0 ? 0 : 1;

  await grader.stop();
  await jobs.stop();
} finally {
  await database.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
}
