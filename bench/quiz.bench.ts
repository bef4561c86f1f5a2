// `npm run bench:quiz`: the start and the end of an exam. BENCH_STUDENTS (1,000) students, seeded
// directly with a session each, open the same quiz within BENCH_SECONDS (10 s) — a timed quiz
// (BENCH_TIME_LIMIT minutes, default 60): `POST quiz-submissions/create/` then `GET QuizContent`; with
// BENCH_TIME_LIMIT=0 an untimed one: `GET CourseSpecificDetail` then `GET QuizContent` — and then submit
// within the next BENCH_SECONDS, a BENCH_DUPLICATES share of them (10 %) sending a second submission at
// the same moment. Arrivals are spread at random over the window (an open loop: nobody waits for the
// others). Prints p50/p95/p99 latency of opening (both calls) and of submitting, the CPU each request of
// either phase cost (API, PostgreSQL, this process as load generator, from /proc; the whole box for
// information), accepted submissions and duplicates, for the embedded PGlite and for a fresh database
// on the PostgreSQL server at BENCH_PG_URL (BENCH_TARGETS=pglite,postgres picks). Budgets on
// PostgreSQL, in CPU per request of the API, PostgreSQL and load generator together (issue 22 §3:
// latency on this shared box moves 2× with the hour, the work a request needs does not): opening ≤
// OPEN_CPU_MS, submitting ≤ SUBMIT_CPU_MS; on either database exactly one accepted submission per
// student and every duplicate answered 409; exits 1 when missed. p50/p95/p99 are information (the
// issue's target, p95 < 300 ms for both: docs/performance.md).
import os from 'node:os';
import { QuizContent, type AnswerValue, type Question } from '@kadai/contracts';
import { cpuBetween, cpuLine, cpuPerRequest, snapshotCpu, type CpuPerRequest } from './cpu.ts';
import { createBenchDatabase, startBenchServer, stopProcess } from './processes.ts';
import { percentile } from './stats.ts';
import { agent, send } from './http-client.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DUPLICATES = Number(process.env.BENCH_DUPLICATES ?? 0.1);
/** Students who take the quiz once before the clock starts, so the figures are of a warm server. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const TIME_LIMIT = Number(process.env.BENCH_TIME_LIMIT ?? 60);
const TARGETS = (process.env.BENCH_TARGETS ?? 'pglite,postgres').split(',').map((s) => s.trim());
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Budgets in ms of CPU per request (API + PostgreSQL + load generator), about a third above what each
 * phase cost on 2026-11-27 (2.09 and 3.10 ms, load 2.6): room for run-to-run noise, while a change
 * that makes a call a third dearer fails. Opening counts both of its calls as requests.
 */
const OPEN_CPU_MS = 2.8;
const SUBMIT_CPU_MS = 4.1;
const timed = TIME_LIMIT > 0;

interface Ready {
  port: number;
  courseId: number;
  quizId: number;
  quizCourseId: number;
  tokens: string[];
}

function isReady(value: unknown): value is Ready {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ready' in value &&
    'port' in value &&
    'tokens' in value &&
    Array.isArray(value.tokens)
  );
}

/** Some answer of the right shape to every question (right or wrong does not matter here). */
function answerTo(q: Question): AnswerValue {
  switch (q.kind) {
    case 'single':
      return q.options[0]!.id;
    case 'multiple':
      return [q.options[0]!.id];
    case 'true_false':
      return true;
    case 'short_text':
      return 'quick sort';
    case 'numeric':
      return 3.14;
    case 'ordering':
      return q.options.map((o) => o.id);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn(i)` for every student at a random moment of the window; resolves when all are done. */
function spread<T>(count: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => sleep(Math.random() * SECONDS * 1000).then(() => fn(i))),
  );
}

interface Figures {
  target: string;
  open: number[];
  submit: number[];
  openErrors: number;
  accepted: number;
  duplicatesSent: number;
  duplicatesRejected: number;
  duplicatesAccepted: number;
  missing: number;
  otherErrors: string[];
  wallSeconds: number;
  /** The machine's 1-minute load average before the run: other work on the box skews the figures. */
  load: string;
  /** CPU per request of each phase, ms. */
  openCpu: CpuPerRequest;
  submitCpu: CpuPerRequest;
}

/** One student opening the quiz: both calls, their time, and the questions. */
async function open(ready: Ready, token: string, errors: string[]) {
  const { port, courseId, quizId, quizCourseId } = ready;
  const first = timed
    ? await send(port, 'POST', '/api/quiz-submissions/create/', token, { quiz_course: quizCourseId })
    : await send(port, 'GET', `/api/Quiz/${quizId}/CourseSpecificDetail/?course_id=${courseId}`, token);
  const content = await send(port, 'GET', `/api/Quiz/${quizId}/QuizContent/?course_id=${courseId}`, token);
  if (first.status >= 300) errors.push(`${first.status} ${first.body.slice(0, 200)}`);
  if (content.status !== 200) errors.push(`${content.status} ${content.body.slice(0, 200)}`);
  const parsed = content.status === 200 ? QuizContent.parse(JSON.parse(content.body)) : null;
  return { ms: first.ms + content.ms, questions: parsed?.questions ?? [] };
}

function submitBody(quizCourseId: number, questions: Question[]) {
  return {
    quiz_course: quizCourseId,
    answers: questions.map((q) => ({ question: q.id, answer: answerTo(q) })),
  };
}

async function run(target: string, ready: Ready, apiPid: number): Promise<Figures> {
  const { port, quizCourseId } = ready;
  const load = os.loadavg()[0]!.toFixed(1);
  const warmup: string[] = [];
  // All at once, so the server's pool opens its connections (and prepares its statements on each).
  await Promise.all(
    ready.tokens.slice(STUDENTS).map(async (token) => {
      const { questions } = await open(ready, token, warmup);
      await send(port, 'POST', '/api/Submission/SubmitQuiz/', token, submitBody(quizCourseId, questions));
    }),
  );
  if (warmup.length > 0) throw new Error(`warm-up failed: ${warmup[0]}`);
  const tokens = ready.tokens.slice(0, STUDENTS);
  const started = performance.now();
  const openErrors: string[] = [];
  const beforeOpen = await snapshotCpu(apiPid);
  const contents = await spread(tokens.length, (i) => open(ready, tokens[i]!, openErrors));
  const openUsed = cpuBetween(beforeOpen, await snapshotCpu(apiPid));
  const beforeSubmit = await snapshotCpu(apiPid);
  const duplicateEvery = DUPLICATES > 0 ? Math.round(1 / DUPLICATES) : 0;
  const submits = await spread(tokens.length, async (i) => {
    const body = submitBody(quizCourseId, contents[i]!.questions);
    const copies = duplicateEvery > 0 && i % duplicateEvery === 0 ? 2 : 1;
    return Promise.all(
      Array.from({ length: copies }, () =>
        send(port, 'POST', '/api/Submission/SubmitQuiz/', tokens[i]!, body),
      ),
    );
  });
  const submitUsed = cpuBetween(beforeSubmit, await snapshotCpu(apiPid));
  const wallSeconds = (performance.now() - started) / 1000;
  const otherErrors = [...openErrors];
  let accepted = 0;
  let duplicatesRejected = 0;
  let duplicatesAccepted = 0;
  let missing = 0;
  for (const answers of submits) {
    const wins = answers.filter((a) => a.status === 201).length;
    accepted += wins;
    if (wins === 0) missing += 1;
    if (wins > 1) duplicatesAccepted += wins - 1;
    for (const a of answers) {
      if (a.status === 409 && a.body.includes('"already_submitted"')) duplicatesRejected += 1;
      else if (a.status !== 201) otherErrors.push(`${a.status} ${a.body.slice(0, 200)}`);
    }
  }
  return {
    target,
    open: contents.map((c) => c.ms),
    submit: submits.flat().map((a) => a.ms),
    openErrors: openErrors.length,
    accepted,
    duplicatesSent: submits.filter((s) => s.length > 1).length,
    duplicatesRejected,
    duplicatesAccepted,
    missing,
    otherErrors,
    wallSeconds,
    load,
    openCpu: cpuPerRequest(openUsed, 2 * contents.length),
    submitCpu: cpuPerRequest(submitUsed, submits.flat().length),
  };
}

console.log(
  `${STUDENTS} students open a ${timed ? `${TIME_LIMIT}-minute timed` : 'untimed'} quiz of 7 questions within ` +
    `${SECONDS} s (${timed ? 'create + QuizContent' : 'CourseSpecificDetail + QuizContent'}), then submit within ` +
    `${SECONDS} s; ${Math.round(DUPLICATES * 100)} % send a second submission at the same moment.\n`,
);

const figures: Figures[] = [];
let pgMissing = false;
for (const target of TARGETS) {
  const database = target === 'postgres' ? await createBenchDatabase(pgServer, 'kadai_bench_quiz') : null;
  if (target === 'postgres' && !database) {
    pgMissing = true;
    continue;
  }
  try {
    const server = await startBenchServer(
      'quiz-server.ts',
      {
        BENCH_STUDENTS: String(STUDENTS + WARMUP),
        BENCH_TIME_LIMIT: String(TIME_LIMIT),
        DATABASE_URL: database?.url ?? '',
      },
      isReady,
    );
    try {
      const name = target === 'postgres' ? 'PostgreSQL' : 'PGlite';
      const f = await run(name, server.ready, server.child.pid ?? 0);
      console.log(`${name}: CPU per request, opening: ${cpuLine(f.openCpu)}`);
      console.log(`${name}: CPU per request, submitting: ${cpuLine(f.submitCpu)}`);
      figures.push(f);
    } finally {
      await stopProcess(server.child);
    }
  } finally {
    await database?.drop();
  }
}
agent.destroy();

const ms = (x: number) => `${Math.round(x)} ms`;
const rows = figures.map((f) => {
  const correct =
    f.accepted === STUDENTS &&
    f.missing === 0 &&
    f.duplicatesAccepted === 0 &&
    f.duplicatesRejected === f.duplicatesSent &&
    f.otherErrors.length === 0;
  const within = f.openCpu.served <= OPEN_CPU_MS && f.submitCpu.served <= SUBMIT_CPU_MS;
  const isPg = f.target === 'PostgreSQL';
  return {
    target: f.target,
    'open p50': ms(percentile(f.open, 50)),
    'open p95': ms(percentile(f.open, 95)),
    'open p99': ms(percentile(f.open, 99)),
    'submit p50': ms(percentile(f.submit, 50)),
    'submit p95': ms(percentile(f.submit, 95)),
    'submit p99': ms(percentile(f.submit, 99)),
    'open CPU/req': `${f.openCpu.served.toFixed(2)} ms`,
    'submit CPU/req': `${f.submitCpu.served.toFixed(2)} ms`,
    accepted: f.accepted,
    'dup sent': f.duplicatesSent,
    'dup 409': f.duplicatesRejected,
    'dup accepted': f.duplicatesAccepted,
    errors: f.otherErrors.length,
    // PGlite runs inside the API's process: its CPU is not comparable with the PostgreSQL budgets.
    verdict: !correct ? 'WRONG' : !isPg ? 'information' : within ? 'meets budgets' : 'OVER BUDGET',
    wall: `${f.wallSeconds.toFixed(1)} s`,
    load: f.load,
  };
});
console.table(rows);
console.log(
  `CPU/req: the API, PostgreSQL and this process (load generator) together, what the verdict uses on ` +
    `PostgreSQL (budgets: opening ≤ ${OPEN_CPU_MS} ms, submitting ≤ ${SUBMIT_CPU_MS} ms); p50/p95/p99: ` +
    `information (the issue: p95 < 300 ms).`,
);
for (const f of figures) {
  for (const e of f.otherErrors.slice(0, 5)) console.log(`${f.target} error: ${e}`);
}
const failed = pgMissing || rows.some((r) => r.verdict === 'WRONG' || r.verdict === 'OVER BUDGET');
process.exit(failed ? 1 : 0);
