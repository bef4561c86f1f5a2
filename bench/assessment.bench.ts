// `npm run bench:assessment`: assessment analysis (issue: "a course of 1,000 students, 20 assignments
// with 10 test cases each and 10 quizzes; prints the time of the course table and of one student's
// detail. Target on this 2-core machine on PostgreSQL: course table under 500 ms, one student under 50 ms").
//
// On a fresh database of the PostgreSQL server at BENCH_PG_URL (embedded PGlite when it does not answer,
// or with BENCH_TARGETS=pglite), seeded in bulk SQL: one course with assessment on, BENCH_STUDENTS
// (1,000) students, 20 assignments all due, each with 10 test cases; two graded submissions per student
// and assignment (the later one final), each with its 10 evaluations (400,000 rows); 10 closed quizzes
// of 10 questions with every student's answers (100,000 rows); 8 skills of 4 types tagged on whole
// assignments, on single test cases and on quiz questions. Then VACUUM ANALYZE and the real API in this
// process, asked over HTTP by the course's editor one request at a time: BENCH_RUNS (20) times each
// after 3 warm-up requests — the course table, one student's detail, and the two histograms. Prints
// p50, p95 and max, and the CPU each request cost (this process — the API and its client, one process —
// and every PostgreSQL process, from /proc; the whole box for information), then the table's bytes on
// the wire and time as sent uncompressed, with gzip and with brotli. Budgets on PostgreSQL, in CPU per
// request (issue 22 §3: latency on this shared box moves 2× with the hour, the work a request needs
// does not): the course table ≤ CPU_BUDGET_MS.table, one student's detail ≤ CPU_BUDGET_MS.student;
// exits 1 when one is over (or the database is missing). p50/p95 against the latency targets
// are information.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AssessmentTable, StudentAnalysis } from '@kadai/contracts';
import { buildApp } from '../apps/api/src/app.ts';
import { openBenchDatabase, signInForBench } from './bench-api.ts';
import { agent, send } from './http-client.ts';
import { cpuBetween, cpuPerRequest, snapshotCpu } from './cpu.ts';
import { createBenchDatabase } from './processes.ts';
import { percentile } from './stats.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres').split(',').map((s) => s.trim());
const pgServer = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = { table: 500, student: 50 };
/**
 * Budgets in ms of CPU per request (this process + PostgreSQL), about a third above what each request
 * cost on 2026-11-27 (175 and 11.5 ms, load 1.2): room for run-to-run noise, while a change that makes
 * a request a third dearer fails. The histograms have no target: information. PostgreSQL runs the
 * table's queries with parallel workers, so its CPU exceeds the request's latency.
 */
const CPU_BUDGET_MS = { table: 235, student: 15 };
/** No such process: the API runs in this one, which snapshotCpu counts as the load generator's. */
const IN_PROCESS = -1;

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

async function seed(query: Query) {
  const started = performance.now();
  const one = async (text: string, values?: unknown[]) => Number((await query(text, values)).rows[0]!.id);
  const course = await one(
    `insert into courses (title, has_assessment) values ('Bench analysis', true) returning id`,
  );
  const editor = await one(`insert into users (email) values ('bench-editor@example.com') returning id`);
  await query(`insert into course_editors (course_id, user_id) values ($1, $2)`, [course, editor]);
  await query(
    `insert into users (email, first_name, last_name)
     select 'bench-' || g || '@example.com', 'Student', lpad(g::text, 4, '0') from generate_series(1, $1) g`,
    [STUDENTS],
  );
  await query(
    `insert into course_students (course_id, user_id) select $1, id from users where email like 'bench-%' and id <> $2`,
    [course, editor],
  );
  await query(`insert into assignments (title) select 'Week ' || g from generate_series(1, 20) g`);
  await query(
    `insert into assignment_courses (assignment_id, course_id, opens_at, due_at)
     select id, $1, now() - interval '40 days', now() - make_interval(days => 21 - (id % 20)) from assignments`,
    [course],
  );
  await query(
    `insert into test_cases (assignment_id, position, name, kind, points)
     select a.id, g, 'test ' || g, 'io', 1 + g % 3 from assignments a, generate_series(0, 9) g`,
  );
  // Two graded submissions per student and assignment; the later one is final.
  await query(
    `insert into submissions (assignment_id, course_id, user_id, status, score, max_score, is_final, graded_at, created_at)
     select a.id, $1, cs.user_id, 'Completed', 0, 20, k = 2, now(), now() - make_interval(mins => 10 * (3 - k))
     from assignments a, course_students cs, generate_series(1, 2) k where cs.course_id = $1`,
    [course],
  );
  await query(
    `insert into evaluations (submission_id, test_case_id, status, points)
     select s.id, tc.id, case when r < 0.7 then 'Correct' else 'Wrong' end, case when r < 0.7 then tc.points else 0 end
     from submissions s join test_cases tc on tc.assignment_id = s.assignment_id,
     lateral (select random() + 0 * s.id * tc.id as r) x where s.course_id = $1`,
    [course],
  );
  await query(
    `update submissions s set score = e.total from
     (select submission_id, sum(points) as total from evaluations group by 1) e
     where e.submission_id = s.id and s.course_id = $1`,
    [course],
  );
  await query(`insert into quizzes (title) select 'Quiz ' || g from generate_series(1, 10) g`);
  await query(
    `insert into quiz_questions (quiz_id, position, kind, prompt, points, answer_key)
     select q.id, g, 'true_false', 'Question ' || g, 1, 'true'::jsonb from quizzes q, generate_series(0, 9) g`,
  );
  await query(
    `insert into quiz_courses (quiz_id, course_id, opens_at, closes_at, scores_visible_at)
     select id, $1, now() - interval '30 days', now() - make_interval(days => id % 10 + 1), now() - interval '1 day'
     from quizzes`,
    [course],
  );
  await query(
    `insert into quiz_submissions (quiz_course_id, user_id, started_at, submitted_at, score, max_score)
     select qc.id, cs.user_id, now() - interval '2 days', now() - interval '2 days', 0, 10
     from quiz_courses qc, course_students cs where qc.course_id = $1 and cs.course_id = $1`,
    [course],
  );
  await query(
    `insert into quiz_answers (submission_id, question_id, answer, is_correct, points)
     select qs.id, qq.id, 'true'::jsonb, x.ok, case when x.ok then 1 else 0 end
     from quiz_submissions qs join quiz_courses qc on qc.id = qs.quiz_course_id
     join quiz_questions qq on qq.quiz_id = qc.quiz_id,
     lateral (select random() + 0 * qs.id * qq.id < 0.6 as ok) x where qc.course_id = $1`,
    [course],
  );
  await query(
    `update quiz_submissions s set score = a.total from
     (select submission_id, sum(points) as total from quiz_answers group by 1) a where a.submission_id = s.id`,
  );
  await query(
    `insert into skills (course_id, name, skill_type)
     select $1, 'Skill ' || g, 'type ' || (g % 4) from generate_series(1, 8) g`,
    [course],
  );
  // Whole assignments (each to one skill), every fifth test case to a second one, quiz questions to a third.
  await query(
    `insert into skill_items (skill_id, assignment_id)
     select k.id, a.id from assignments a join skills k on k.course_id = $1 and k.name = 'Skill ' || (1 + a.id % 8)`,
    [course],
  );
  await query(
    `insert into skill_items (skill_id, test_case_id)
     select k.id, tc.id from test_cases tc join skills k on k.course_id = $1 and k.name = 'Skill ' || (1 + (tc.assignment_id + 3) % 8)
     where tc.position % 5 = 0`,
    [course],
  );
  await query(
    `insert into skill_items (skill_id, quiz_question_id)
     select k.id, qq.id from quiz_questions qq join skills k on k.course_id = $1 and k.name = 'Skill ' || (1 + (qq.quiz_id + qq.position) % 8)`,
    [course],
  );
  await query('vacuum analyze');
  const counts = await query(
    `select (select count(*) from evaluations) as evaluations, (select count(*) from quiz_answers) as answers`,
  );
  const student = await one(
    `select user_id as id from course_students where course_id = $1 order by user_id limit 1`,
    [course],
  );
  const assignment = await one(`select min(id) as id from assignments`);
  return {
    course,
    editor,
    student,
    assignment,
    counts: counts.rows[0]!,
    seconds: (performance.now() - started) / 1000,
  };
}

async function measure(port: number, token: string, url: string, check: (body: string) => string) {
  for (let i = 0; i < 3; i++) await send(port, 'GET', url, token);
  const times: number[] = [];
  let last = '';
  const before = await snapshotCpu(IN_PROCESS);
  for (let i = 0; i < RUNS; i++) {
    const answer = await send(port, 'GET', url, token);
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${answer.body.slice(0, 200)}`);
    times.push(answer.ms);
    last = answer.body;
  }
  const cpu = cpuPerRequest(cpuBetween(before, await snapshotCpu(IN_PROCESS)), RUNS);
  return { times, cpu, bytes: Buffer.byteLength(last), check: check(last) };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** Bytes on the wire (the body as sent) and time of `url` asked with `acceptEncoding`, median of RUNS. */
async function onTheWire(port: number, token: string, url: string, acceptEncoding: string) {
  const once = () =>
    new Promise<{ bytes: number; ms: number; encoding: string }>((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: url,
          agent,
          headers: { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () =>
            resolve({
              bytes,
              ms: performance.now() - started,
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  await once();
  const answers = [];
  for (let i = 0; i < RUNS; i++) answers.push(await once());
  const times = answers.map((a) => a.ms);
  return { bytes: answers[0]!.bytes, encoding: answers[0]!.encoding, p50: percentile(times, 50) };
}

/** Runs the bench; whether it failed (a budget over, or PostgreSQL asked for and not there). */
async function main(): Promise<boolean> {
  const database = TARGETS.includes('postgres')
    ? await createBenchDatabase(pgServer, 'kadai_bench_assessment')
    : null;
  if (database) process.env.DATABASE_URL = database.url;
  const target = database ? 'PostgreSQL' : 'PGlite';
  let failed = TARGETS.includes('postgres') && !database;
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${target}.`,
  );
  const bench = await openBenchDatabase('assessment');
  try {
    const s = await seed((text, values) => bench.database.query(text, values));
    console.log(
      `Seeded in ${s.seconds.toFixed(1)} s: ${STUDENTS} students, 20 assignments × 10 test cases, 10 quizzes × 10 questions, ` +
        `${String(s.counts.evaluations)} evaluations, ${String(s.counts.answers)} quiz answers, 8 skills.\n`,
    );
    const [token] = await signInForBench(bench, [s.editor], 3600);
    const app = await buildApp({
      config: bench.config,
      database: bench.database,
      logger: false,
      webDistDir: path.join(bench.dataDir, 'none'),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const base = `/api/assessment/${s.course}`;
    const rows = [
      {
        name: 'course table',
        target: TARGET_MS.table,
        budget: CPU_BUDGET_MS.table,
        ...(await measure(port, token!, base, (body) => {
          const table = AssessmentTable.parse(JSON.parse(body));
          return `${table.students.length} students × ${table.skills.length} skills, ${table.assignments.length} assignments, ${table.quizzes.length} quizzes`;
        })),
      },
      {
        name: "one student's detail",
        target: TARGET_MS.student,
        budget: CPU_BUDGET_MS.student,
        ...(await measure(port, token!, `${base}/${s.student}`, (body) => {
          const one = StudentAnalysis.parse(JSON.parse(body));
          return `total ${(100 * (one.total.ratio ?? 0)).toFixed(1)} %, ${one.skills.length} skills`;
        })),
      },
      {
        name: 'assignment histogram',
        target: null,
        budget: null,
        ...(await measure(
          port,
          token!,
          `/api/assessment/histogram/assignment/${s.course}/${s.student}/${s.assignment}`,
          (b) => `${String(JSON.parse(b).students)} students`,
        )),
      },
      {
        name: 'skill histogram',
        target: null,
        budget: null,
        ...(await measure(
          port,
          token!,
          `/api/assessment/histogram/skill/${s.course}/${s.student}/Skill%201`,
          (b) => `${String(JSON.parse(b).students)} students`,
        )),
      },
    ];
    console.log(
      `${'request'.padEnd(24)} ${'p50'.padStart(10)} ${'p95'.padStart(10)} ${'max'.padStart(10)} ${'bytes'.padStart(9)}  ` +
        `${'CPU/req'.padStart(10)} ${'whole box'.padStart(10)}  verdict (CPU)         p95 (information)`,
    );
    for (const r of rows) {
      const p95 = percentile(r.times, 95);
      // PGlite runs inside the API's process: its CPU is not comparable with the PostgreSQL budgets.
      const within = r.budget === null || target !== 'PostgreSQL' || r.cpu.served <= r.budget;
      if (!within) failed = true;
      const verdict =
        r.budget === null || target !== 'PostgreSQL'
          ? 'information'
          : `${within ? 'meets' : 'OVER'} ≤ ${r.budget} ms`;
      const latency = r.target === null ? '—' : `${p95 < r.target ? 'under' : 'over'} ${r.target} ms`;
      console.log(
        `${r.name.padEnd(24)} ${fmt(percentile(r.times, 50)).padStart(10)} ${fmt(p95).padStart(10)} ` +
          `${fmt(Math.max(...r.times)).padStart(10)} ${String(r.bytes).padStart(9)}  ${fmt(r.cpu.served).padStart(10)} ` +
          `${fmt(r.cpu.box).padStart(10)}  ${verdict.padEnd(20)}  ${latency}  [${r.check}]`,
      );
    }
    console.log(
      'CPU/req: this process (the API and its client) and PostgreSQL together, what the verdict uses; ' +
        'whole box: every busy core, other work included (information).',
    );
    for (const r of rows) {
      console.log(
        `  ${r.name}: API and client ${r.cpu.bench.toFixed(1)}, PostgreSQL ${r.cpu.postgres.toFixed(1)} = ` +
          `${r.cpu.served.toFixed(1)} ms`,
      );
    }
    // The largest answer of the API, as a browser gets it (apps/api/src/lib/compression.ts).
    console.log('\nThe course table on the wire:');
    for (const acceptEncoding of ['identity', 'gzip', 'gzip, deflate, br']) {
      const wire = await onTheWire(port, token!, base, acceptEncoding);
      console.log(
        `  Accept-Encoding: ${acceptEncoding.padEnd(18)} ${wire.encoding.padEnd(8)} ` +
          `${Math.round(wire.bytes / 1024)} KB, p50 ${fmt(wire.p50)}`,
      );
    }
    await app.close();
  } finally {
    await bench.database.close();
    if (process.env.BENCH_KEEP) console.log(`Kept ${database?.url ?? bench.dataDir}`);
    else await database?.drop();
  }
  return failed;
}

process.exit((await main()) ? 1 : 0);
