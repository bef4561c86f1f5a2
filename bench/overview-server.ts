// The real API for `npm run bench:overview`, on a fresh database (embedded PGlite, or DATABASE_URL): one
// course of BENCH_STUDENTS (1,000) students in the middle of a term, seeded in bulk SQL —
// 24 assignments, one falling due every 3.5 days from seven weeks ago to four weeks ahead (each opens
// two weeks before its due date, every other one accepts late work for two days), and for each opened
// assignment nine students in ten handing in one to three times (graded, a few InvalidFormat, a few
// InternalError, some still queued or executing); 10 quizzes closing weekly from seven weeks ago to
// three weeks ahead, taken by four students in five; a forum of BENCH_TOPICS (10,000) topics — one
// every 15 minutes, so the last 30 days hold about 2,900 — and BENCH_COMMENTS (20,000) comments by the
// students and the editor (bench/forum-seed.ts); 40 events; 50 live workbook sessions. Signs in the
// editor and the first BENCH_SIGNED_IN (64) students and prints one JSON line with the port, the
// course, the tokens and what was seeded.
import { openBenchDatabase, serveBenchApi, signInForBench } from './bench-api.ts';
import { seedForum } from './forum-seed.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
const TOPICS = Number(process.env.BENCH_TOPICS ?? 10_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 20_000);
const SIGNED_IN = Math.min(STUDENTS, Number(process.env.BENCH_SIGNED_IN ?? 64));

const bench = await openBenchDatabase('overview');
const { database } = bench;
const query = (text: string, values?: unknown[]) => database.query(text, values);
const one = async (text: string, values?: unknown[]) => Number((await query(text, values)).rows[0]!.id);
const started = performance.now();

const course = await one(
  `insert into courses (title, description) values ('Introduction to Programming', 'Overview benchmark') returning id`,
);
const editor = await one(
  `insert into users (email, first_name, last_name) values ('bench-editor@example.com', 'Emily', 'Carter') returning id`,
);
await query(`insert into course_editors (course_id, user_id) values ($1, $2)`, [course, editor]);
await query(
  `insert into users (email, first_name, last_name)
   select 'bench-' || g || '@example.com', 'Student', lpad(g::text, 4, '0') from generate_series(1, $1::int) g`,
  [STUDENTS],
);
await query(
  `insert into course_students (course_id, user_id)
   select $1, id from users where email like 'bench-%' and id <> $2 order by id`,
  [course, editor],
);
const studentIds = (
  await query(`select user_id as id from course_students where course_id = $1 order by user_id`, [course])
).rows.map((r) => Number(r.id));

// Assignments: due every 3.5 days, from 52.5 days ago (k = 1) to 31.5 days ahead (k = 24).
await query(`insert into assignments (title) select 'Week ' || k from generate_series(1, 24) k`);
await query(
  `insert into assignment_courses (assignment_id, course_id, opens_at, due_at, late_until)
   select a.id, $1, d.due - interval '14 days', d.due, case when k % 2 = 1 then d.due + interval '2 days' end
   from assignments a
   cross join lateral (select substring(a.title from 6)::int as k) kk(k)
   cross join lateral (select now() + make_interval(hours => (k - 16) * 84) as due) d`,
  [course],
);
// Submissions: for each opened assignment, nine students in ten hand in 1–3 times (graded minutes apart).
await query(
  `insert into submissions (assignment_id, course_id, user_id, status, score, max_score, is_final, queued_at,
                            started_at, graded_at, created_at)
   select ac.assignment_id, ac.course_id, cs.user_id, 'Completed', (cs.user_id * 7 + ac.assignment_id + n) % 11, 10,
          false, t.at, t.at, t.at + interval '20 seconds', t.at
   from assignment_courses ac
   join course_students cs on cs.course_id = ac.course_id
   cross join lateral generate_series(1, 1 + (cs.user_id + ac.assignment_id) % 3) n
   cross join lateral (select least(ac.due_at, now()) - make_interval(hours => ((cs.user_id * 13 + n * 29) % 200)) as at) t
   where ac.course_id = $1 and ac.opens_at <= now() and (cs.user_id * 31 + ac.assignment_id) % 10 <> 0
     and t.at > ac.opens_at`,
  [course],
);
// Some go wrong: 3 % InvalidFormat, 20 InternalError, 10 still queued and 4 executing for half an hour.
await query(
  `update submissions set status = 'InvalidFormat', score = 0, message = 'main.py is missing.'
   where course_id = $1 and id % 33 = 0`,
  [course],
);
await query(
  `update submissions set status = 'InternalError', score = null, graded_at = null,
     message = 'Grading failed after every retry.'
   where id in (select id from submissions where course_id = $1 and status = 'Completed' order by id desc limit 20)`,
  [course],
);
await query(
  `update submissions set status = 'Scheduled', score = null, graded_at = null, started_at = null,
     queued_at = now() - interval '30 minutes', created_at = now() - interval '30 minutes'
   where id in (select id from submissions where course_id = $1 and status = 'Completed' order by id desc limit 10)`,
  [course],
);
await query(
  `update submissions set status = 'Executing', score = null, graded_at = null,
     started_at = now() - interval '30 minutes', created_at = now() - interval '31 minutes'
   where id in (select id from submissions where course_id = $1 and status = 'Completed' order by id desc limit 4)`,
  [course],
);

// Quizzes: closing weekly from 49 days ago to 14 days ahead; open for five days before; scores shown a
// day after closing; four students in five submitted those opened.
await query(`insert into quizzes (title) select 'Quiz ' || k from generate_series(1, 10) k`);
await query(
  `insert into quiz_questions (quiz_id, position, kind, prompt, points, answer_key)
   select q.id, g, 'true_false', 'Question ' || g, 1, 'true'::jsonb from quizzes q, generate_series(0, 4) g`,
);
await query(
  `insert into quiz_courses (quiz_id, course_id, opens_at, closes_at, scores_visible_at)
   select q.id, $1, c.closes - interval '5 days', c.closes, c.closes + interval '1 day'
   from quizzes q
   cross join lateral (select now() + make_interval(days => (substring(q.title from 6)::int - 8) * 7) as closes) c`,
  [course],
);
await query(
  `insert into quiz_submissions (quiz_course_id, user_id, started_at, submitted_at, score, max_score)
   select qc.id, cs.user_id, least(now(), qc.closes_at) - interval '1 hour', least(now(), qc.closes_at) - interval '50 minutes',
          (cs.user_id + qc.id) % 6, 5
   from quiz_courses qc join course_students cs on cs.course_id = qc.course_id
   where qc.course_id = $1 and qc.opens_at <= now() and (cs.user_id + qc.id) % 5 <> 0`,
  [course],
);

// Events: a lecture twice a week from ten weeks ago to ten weeks ahead.
await query(
  `insert into events (course_id, title, kind, starts_at, ends_at, location, created_by)
   select $1, 'Lecture ' || g, 'lecture', s.at, s.at + interval '90 minutes', 'Room 101', $2
   from generate_series(1, 40) g
   cross join lateral (select now() + make_interval(hours => (g - 20) * 84) as at) s`,
  [course, editor],
);

// Workbooks: 50 students have a live session.
const config = await one(
  `insert into workbook_configs (course_id, name, lifetime_minutes, max_extension_minutes, memory_mb, cpu_seconds, starter)
   values ($1, 'Lab', 60, 60, 512, 600, '{"cells": []}'::jsonb) returning id`,
  [course],
);
await query(
  `with nb as (
     insert into workbook_notebooks (user_id, course_id, config_id, name, content)
     select user_id, $1, $2, 'Lab', '{"cells": []}'::jsonb from course_students where course_id = $1
     order by user_id limit 50
     returning id, user_id)
   insert into workbook_sessions (user_id, course_id, config_id, notebook_id, expires_at, max_extension_minutes,
                                  memory_mb, cpu_seconds)
   select user_id, $1, $2, id, now() + interval '1 hour', 60, 512, 600 from nb`,
  [course, config],
);

const forum = await seedForum(query, {
  courseId: course,
  editorId: editor,
  // The first student reads a tenth of the topics and writes nothing (forum-seed's viewer); the others write.
  viewerId: studentIds[0]!,
  authorIds: studentIds.slice(1),
  topics: TOPICS,
  comments: COMMENTS,
});
await query('vacuum analyze');

const counts = (
  await query(
    `select (select count(*) from submissions where course_id = $1)::int as submissions,
            (select count(*) from quiz_submissions)::int as quiz_submissions,
            (select count(*) from forum_records where course_id = $1)::int as forum_records`,
    [course],
  )
).rows[0]!;
const tokens = await signInForBench(bench, [editor, ...studentIds.slice(0, SIGNED_IN)], 7200);

await serveBenchApi(bench, {
  courseId: course,
  editorToken: tokens[0],
  studentTokens: tokens.slice(1),
  seeded: {
    students: studentIds.length,
    submissions: Number(counts.submissions),
    quizSubmissions: Number(counts.quiz_submissions),
    forumRecords: Number(counts.forum_records),
    forumSeconds: forum.seconds,
    seconds: (performance.now() - started) / 1000,
  },
});
