// `npm run bench:notify` (issue 40 §5): notifications under load, in this process.
//
// 1. The fan-out: an announcement to a course of BENCH_RECIPIENTS (2,000) students, made as the forum
//    makes it — `notify(tx, event)` in a transaction, one INSERT … SELECT — BENCH_ROUNDS (10) times, each
//    a new announcement (the table grows by 2,000 rows a round). Prints the wall time and the database's
//    CPU per recipient. On the embedded PGlite the database runs in this process, so this process's CPU
//    (user + system) is the measure; on PostgreSQL it is the CPU of the backend that ran the statement,
//    from /proc/<pid>/schedstat (nanoseconds; /proc/<pid>/stat's 10 ms ticks when schedstat is missing),
//    read before the statement and after its commit.
// 2. Delivery: BENCH_EMAILS (2,000) e-mails in the outbox (invitations, as the existing sending path
//    writes them; the notification mailer is built on the same outbox and sender), sent through the
//    real path — pg-boss jobs, mail.jobs.ts, nodemailer's pool — to a real SMTP server (smtp-server from npm)
//    in this process. Prints e-mails per second from the first job queued to the last e-mail accepted.
//
// Targets (the verdict, exit 1 when missed): the median round ≤ 0.2 ms of database CPU per recipient,
// and ≥ 50 e-mails/s. The embedded PGlite always; PostgreSQL too when BENCH_PG_URL, DATABASE_URL or
// TEST_DATABASE_URL names a server (a fresh database is made there and dropped), or with `-- --pg`
// (127.0.0.1:5432). BENCH_TARGETS=pglite or =postgres runs one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { startJobQueue } from '../apps/api/src/lib/jobs.ts';
import { createStorage } from '../apps/api/src/lib/storage.ts';
import { startMailJobs, type DeliveryOutcome } from '../apps/api/src/features/mail/mail.jobs.ts';
import { queueEmails, writeEmails } from '../apps/api/src/features/mail/outbox.ts';
import { links, notify } from '../apps/api/src/features/notifications/notify.service.ts';
import { startTestSmtpServer } from '../apps/api/test/smtp-server.ts';
import { createBenchDatabase } from './processes.ts';
import { percentile } from './stats.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
/** Budgets (issue 40 §5). */
const FANOUT_CPU_MS_PER_RECIPIENT = 0.2;
const EMAILS_PER_SECOND = 50;
/** Delivery that makes no progress for this long has stalled. */
const STALL_MS = 60_000;

const pgServer =
  process.env.BENCH_PG_URL ||
  process.env.DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  (process.argv.includes('--pg') ? 'postgres://postgres@127.0.0.1:5432/postgres' : '');
const TARGETS = (process.env.BENCH_TARGETS ?? (pgServer ? 'pglite,postgres' : 'pglite'))
  .split(',')
  .map((s) => s.trim());

/** CPU time of a process in ms: schedstat's nanoseconds on the CPU, else stat's ticks; null if unreadable. */
function processCpuMs(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null;
    }
  }
}

const ownCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

const Pid = z.object({ rows: z.array(z.object({ pid: z.coerce.number() })) });

interface Round {
  wallMs: number;
  /** The database's CPU for the round: the backend's on PostgreSQL, this process's on PGlite. */
  databaseCpuMs: number | null;
  /** This process's CPU (on PGlite the same as the database's). */
  processCpuMs: number;
  added: number;
}

async function seed(
  database: Database,
): Promise<{ courseId: number; editorId: number; studentIds: number[] }> {
  const one = async (text: string, values: unknown[] = []) =>
    Number((await database.query(text, values)).rows[0]!.id);
  const courseId = await one(`insert into courses (title) values ('Bench: notifications') returning id`);
  const editorId = await one(
    `insert into users (email, first_name, last_name) values ('notify-editor@example.com', 'Eda', 'Editor')
     returning id`,
  );
  await database.query('insert into course_editors (course_id, user_id) values ($1, $2)', [
    courseId,
    editorId,
  ]);
  const students = await database.query(
    `insert into users (email, first_name, last_name)
     select 'notify-' || g || '@example.com', 'Student', lpad(g::text, 4, '0') from generate_series(1, $1::int) g
     returning id`,
    [RECIPIENTS],
  );
  const studentIds = students.rows.map((row) => Number(row.id));
  await database.query(`insert into course_students (course_id, user_id) select $1, unnest($2::int[])`, [
    courseId,
    studentIds,
  ]);
  await database.query('analyze');
  return { courseId, editorId, studentIds };
}

async function fanOut(
  database: Database,
  target: string,
  courseId: number,
  editorId: number,
): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const event = {
      kind: 'announcement' as const,
      key: `announcement:bench:${Date.now()}:${round}`,
      courseId,
      link: links.forumRecord(courseId, round),
      facts: { title: `Announcement ${round}` },
      to: { students: courseId },
      actorId: editorId,
    };
    let backend: number | null = null;
    let backendBefore: number | null = null;
    const processBefore = ownCpuMs();
    const started = performance.now();
    const added = await database.db.transaction(async (tx) => {
      if (target === 'postgres') {
        backend = Pid.parse(await tx.execute(sql`select pg_backend_pid() as pid`)).rows[0]!.pid;
        backendBefore = processCpuMs(backend);
      }
      return notify(tx, event);
    });
    const wallMs = performance.now() - started;
    const processCpu = ownCpuMs() - processBefore;
    const backendAfter = backend === null ? null : processCpuMs(backend);
    const databaseCpuMs =
      target === 'postgres'
        ? backendBefore === null || backendAfter === null
          ? null
          : backendAfter - backendBefore
        : processCpu;
    rounds.push({ wallMs, databaseCpuMs, processCpuMs: processCpu, added });
    console.log(
      `  round ${String(round).padStart(2)}: ${added} added, ${wallMs.toFixed(1)} ms wall, ` +
        `database CPU ${databaseCpuMs === null ? 'unreadable' : `${databaseCpuMs.toFixed(1)} ms`}` +
        (target === 'postgres' ? `, this process ${processCpu.toFixed(1)} ms` : ''),
    );
  }
  return rounds;
}

async function deliver(database: Database, config: ReturnType<typeof loadConfig>, dataDir: string) {
  const smtp = await startTestSmtpServer();
  const mailConfig = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: config.JWT_SECRET,
    PUBLIC_URL: 'http://lms.bench',
    SMTP_HOST: smtp.host,
    SMTP_PORT: String(smtp.port),
  });
  const jobs = await startJobQueue(database, { pollingIntervalSeconds: 0.5 });
  const storage = createStorage(mailConfig, database);
  const app = await buildApp({
    config: mailConfig,
    database,
    jobs,
    storage,
    logger: false,
    webDistDir: path.join(dataDir, 'no-web'),
  });
  await app.ready();
  const ctx = app.appContext;
  try {
    const recipients = (
      await database.query(
        `select id, email, first_name, last_name, display_lang from users
          where email like 'notify-%@example.com' order by id limit $1`,
        [EMAILS],
      )
    ).rows.map((row) => ({
      id: Number(row.id),
      email: String(row.email),
      firstName: String(row.first_name),
      lastName: String(row.last_name),
      displayLang: String(row.display_lang),
    }));
    const ids = await database.db.transaction((tx) =>
      writeEmails(
        tx,
        mailConfig,
        recipients.map((to) => ({
          kind: 'invitation' as const,
          to,
          link: 'http://lms.bench/set-password/bench',
          lifetimeSeconds: 86_400,
          courseTitle: 'Bench: notifications',
        })),
      ),
    );
    const outcomes = new Map<DeliveryOutcome, number>();
    let lastProgress = Date.now();
    await startMailJobs(ctx, {
      onDelivered: (_id, outcome) => {
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        lastProgress = Date.now();
      },
    });
    const cpuBefore = ownCpuMs();
    const started = performance.now();
    await queueEmails(ctx, ids);
    const queuedMs = performance.now() - started;
    lastProgress = Date.now();
    while ((outcomes.get('sent') ?? 0) < ids.length && Date.now() - lastProgress < STALL_MS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = ownCpuMs() - cpuBefore;
    const sent = outcomes.get('sent') ?? 0;
    return {
      emails: ids.length,
      sent,
      received: smtp.messages.length,
      seconds,
      queuedMs,
      perSecond: sent / seconds,
      cpuMsPerEmail: cpuMs / Math.max(sent, 1),
      outcomes: Object.fromEntries(outcomes),
    };
  } finally {
    await app.close();
    await jobs.stop();
    await storage.close();
    await smtp.close();
  }
}

async function runTarget(target: string): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bench-notify-'));
  const made = target === 'postgres' ? await createBenchDatabase(pgServer, 'kadai_bench_notify') : null;
  if (target === 'postgres' && !made) return false;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: made?.url,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir, poolSize: 4 });
  let ok = true;
  try {
    await migrateDatabase(database);
    const { courseId, editorId, studentIds } = await seed(database);
    console.log(`\n${target}: a course of ${studentIds.length} students; ${ROUNDS} announcements`);
    const rounds = await fanOut(database, target, courseId, editorId);
    const wrong = rounds.filter((r) => r.added !== studentIds.length).length;
    const cpu = rounds.map((r) => r.databaseCpuMs).filter((ms): ms is number => ms !== null);
    const wall = rounds.map((r) => r.wallMs);
    const perRecipient = cpu.length === rounds.length ? percentile(cpu, 50) / studentIds.length : null;
    console.log(
      `${target} fan-out: wall p50 ${percentile(wall, 50).toFixed(1)} ms (${((percentile(wall, 50) / studentIds.length) * 1000).toFixed(1)} µs a recipient), ` +
        `database CPU p50 ${cpu.length ? percentile(cpu, 50).toFixed(1) : '?'} ms, worst ${cpu.length ? Math.max(...cpu).toFixed(1) : '?'} ms: ` +
        `${perRecipient === null ? 'unreadable' : `${(perRecipient * 1000).toFixed(1)} µs`} of database CPU a recipient ` +
        `(budget ${FANOUT_CPU_MS_PER_RECIPIENT * 1000} µs)` +
        (wrong ? `; ${wrong} rounds added the wrong number of rows` : ''),
    );
    if (wrong > 0 || perRecipient === null || perRecipient > FANOUT_CPU_MS_PER_RECIPIENT) ok = false;

    const mail = await deliver(database, config, dataDir);
    console.log(
      `${target} delivery: ${mail.sent} of ${mail.emails} e-mails sent (${mail.received} received) in ` +
        `${mail.seconds.toFixed(1)} s: ${mail.perSecond.toFixed(1)} e-mails/s (target ≥ ${EMAILS_PER_SECOND}); ` +
        `queueing the jobs took ${mail.queuedMs.toFixed(0)} ms; this process ${mail.cpuMsPerEmail.toFixed(2)} ms CPU an e-mail; ` +
        `outcomes ${JSON.stringify(mail.outcomes)}`,
    );
    if (mail.sent !== mail.emails || mail.received !== mail.emails || mail.perSecond < EMAILS_PER_SECOND)
      ok = false;
  } finally {
    await database.close();
    await made?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return ok;
}

console.log(
  `bench:notify on ${os.cpus().length} cores, Node ${process.versions.node}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
let allOk = true;
for (const target of TARGETS) {
  if (!(await runTarget(target))) allOk = false;
}
if (!allOk) {
  console.error('\nbench:notify: a target was missed (or a database was not reachable)');
  process.exit(1);
}
console.log('\nbench:notify: every target met');
process.exit(0);
