// A large course for `npm run bench:web`'s gradebook and course home (issue 36, item 20), in bulk SQL as
// the other benches seed (bench/overview-server.ts): `students` students and `items` items — three
// assignments for every quiz — falling due evenly from ten weeks ago to five weeks ahead, so about two
// thirds are due. Nine students in ten hand in each opened assignment one to three times (graded, some
// late, the last one final), four in five take each opened quiz, and one student in twenty has an
// extension on an assignment. The editor given edits the course.
import type { Query } from './forum-seed.ts';

export interface GradebookSeedOptions {
  editorId: number;
  students: number;
  items: number;
}

export interface GradebookSeedResult {
  courseId: number;
  assignments: number;
  quizzes: number;
  submissions: number;
  quizSubmissions: number;
  seconds: number;
}

export async function seedGradebookCourse(
  query: Query,
  { editorId, students, items }: GradebookSeedOptions,
): Promise<GradebookSeedResult> {
  const started = performance.now();
  const one = async (text: string, values?: unknown[]) => Number((await query(text, values)).rows[0]!.id);
  const quizCount = Math.floor(items / 4);
  const assignmentCount = items - quizCount;
  const course = await one(
    `insert into courses (title, description, has_assessment)
     values ('Gradebook bench', 'A course of many students and items (bench:web).', true) returning id`,
  );
  await query(`insert into course_editors (course_id, user_id) values ($1, $2)`, [course, editorId]);
  await query(
    `insert into users (email, first_name, last_name)
     select 'gradebook-' || g || '@example.com', 'Student', 'Gradebook ' || lpad(g::text, 4, '0')
     from generate_series(1, $1::int) g`,
    [students],
  );
  await query(
    `insert into course_students (course_id, user_id)
     select $1, id from users where email like 'gradebook-%@example.com' order by id`,
    [course],
  );

  // Item k of `items` falls due at -70 + k × 105 / items days: from ten weeks ago to five weeks ahead.
  // Assignments take k = 1, 2, 3, 5, 6, 7, …; quizzes every fourth.
  await query(
    `insert into assignments (title) select 'Gradebook week ' || k || ': a title long enough to wrap'
     from generate_series(1, $1::int) k where k % 4 <> 0`,
    [items],
  );
  await query(
    `insert into assignment_courses (assignment_id, course_id, opens_at, due_at, late_until)
     select a.id, $1, d.due - interval '14 days', d.due, d.due + interval '2 days'
     from assignments a
     cross join lateral (select substring(a.title from 'week (\\d+)')::int as k) kk
     cross join lateral (select now() + make_interval(hours => (-70 * 24 + kk.k * 105 * 24 / $2::int)) as due) d
     where a.title like 'Gradebook week %'`,
    [course, items],
  );
  await query(
    `insert into test_cases (assignment_id, position, name, kind, points)
     select ac.assignment_id, g, 'test ' || g, 'io', 2 from assignment_courses ac, generate_series(0, 4) g
     where ac.course_id = $1`,
    [course],
  );
  await query(
    `insert into submissions (assignment_id, course_id, user_id, status, score, max_score, is_final, is_late,
                              queued_at, started_at, graded_at, created_at)
     select ac.assignment_id, ac.course_id, cs.user_id, 'Completed', (cs.user_id * 7 + ac.assignment_id + n) % 11, 10,
            n = 1 + (cs.user_id + ac.assignment_id) % 3, t.at > ac.due_at,
            t.at, t.at, t.at + interval '20 seconds', t.at
     from assignment_courses ac
     join course_students cs on cs.course_id = ac.course_id
     cross join lateral generate_series(1, 1 + (cs.user_id + ac.assignment_id) % 3) n
     cross join lateral (select least(ac.due_at + interval '1 day', now())
                                - make_interval(hours => ((cs.user_id * 13 + n * 29) % 200)) as at) t
     where ac.course_id = $1 and ac.opens_at <= now() and (cs.user_id * 31 + ac.assignment_id) % 10 <> 0
       and t.at > ac.opens_at`,
    [course],
  );
  await query(
    `insert into assignment_extensions (course_id, assignment_id, user_id, due_at, reason, granted_by)
     select ac.course_id, ac.assignment_id, cs.user_id, ac.due_at + interval '7 days', 'Bench', $2
     from assignment_courses ac join course_students cs on cs.course_id = ac.course_id
     where ac.course_id = $1 and (cs.user_id + ac.assignment_id) % 20 = 0`,
    [course, editorId],
  );

  await query(
    `insert into quizzes (title) select 'Gradebook quiz ' || k from generate_series(1, $1::int) k`,
    [quizCount],
  );
  await query(
    `insert into quiz_questions (quiz_id, position, kind, prompt, points, answer_key)
     select q.id, g, 'true_false', 'Question ' || g, 1, 'true'::jsonb
     from quizzes q, generate_series(0, 4) g where q.title like 'Gradebook quiz %'`,
  );
  await query(
    `insert into quiz_courses (quiz_id, course_id, opens_at, closes_at, scores_visible_at)
     select q.id, $1, c.closes - interval '5 days', c.closes, c.closes + interval '1 day'
     from quizzes q
     cross join lateral (select substring(q.title from 'quiz (\\d+)')::int * 4 as k) kk
     cross join lateral (select now() + make_interval(hours => (-70 * 24 + kk.k * 105 * 24 / $2::int)) as closes) c
     where q.title like 'Gradebook quiz %'`,
    [course, items],
  );
  await query(
    `insert into quiz_submissions (quiz_course_id, user_id, started_at, submitted_at, score, max_score)
     select qc.id, cs.user_id, least(now(), qc.closes_at) - interval '1 hour',
            least(now(), qc.closes_at) - interval '50 minutes', (cs.user_id + qc.id) % 6, 5
     from quiz_courses qc join course_students cs on cs.course_id = qc.course_id
     where qc.course_id = $1 and qc.opens_at <= now() and (cs.user_id + qc.id) % 5 <> 0`,
    [course],
  );
  await query('analyze');

  const counts = (
    await query(
      `select (select count(*) from submissions where course_id = $1)::int as submissions,
              (select count(*) from quiz_submissions qs join quiz_courses qc on qc.id = qs.quiz_course_id
               where qc.course_id = $1)::int as quiz_submissions`,
      [course],
    )
  ).rows[0]!;
  return {
    courseId: course,
    assignments: assignmentCount,
    quizzes: quizCount,
    submissions: Number(counts.submissions),
    quizSubmissions: Number(counts.quiz_submissions),
    seconds: (performance.now() - started) / 1000,
  };
}
