import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  OVERVIEW_CLOSING_DAYS,
  OVERVIEW_MISSING_DAYS,
  OVERVIEW_MISSING_NAMES,
  OVERVIEW_QUESTION_DAYS,
  OVERVIEW_STUCK_MINUTES,
  SUBMISSION_STATUSES,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import {
  AUTHOR_COLUMNS,
  AuthorFields,
  CAP,
  counted,
  COURSE,
  date,
  daysFromNow,
  int,
  LIMIT,
  minutesFromNow,
  NOW,
  prepared,
  RECENT,
  text,
  type Counted,
} from './overview.repo.ts';

/* What an editor's course home reads; the statements' helpers and the student's part are in overview.repo.ts. */

/* ─── An editor's view ───────────────────────────────────────────────────────────────────────── */

export interface EditorScope {
  courseId: number;
}

const GradingRow = z.object({
  submission_id: int,
  assignment_id: int,
  assignment_title: text,
  student_id: int,
  student_email: text,
  student_first_name: text,
  student_last_name: text,
  status: z.enum(SUBMISSION_STATUSES),
  message: text,
  created_at: date,
  queued_at: date.nullable(),
  started_at: date.nullable(),
  total: int,
});
export type GradingRow = z.infer<typeof GradingRow>;

// Two walks of submissions_attention_idx: the waiting and failed states (few), and InvalidFormat since
// `since`, newest first and at most the cap (a range of the index, walked backwards), kept only while it
// is the student's latest submission (asked of submissions_assignment_course_user_idx per row: a join
// would hash every submission of the course).
const gradingAttention = prepared(
  'overview_grading_attention',
  sql`
    select sb.id as submission_id, sb.assignment_id, a.title as assignment_title,
           u.id as student_id, u.email as student_email, u.first_name as student_first_name,
           u.last_name as student_last_name, sb.status, sb.message, sb.created_at, sb.queued_at, sb.started_at,
           count(*) over ()::int as total
    from (
      select s.* from submissions s
      where s.course_id = ${COURSE} and s.status in ('Scheduled', 'Executing', 'InternalError') and not s.is_reference
        and (s.status = 'InternalError'
             or (s.status = 'Scheduled' and s.queued_at < ${minutesFromNow(-OVERVIEW_STUCK_MINUTES)})
             or (s.status = 'Executing' and s.started_at < ${minutesFromNow(-OVERVIEW_STUCK_MINUTES)}))
      union all
      (select s.* from submissions s
       where s.course_id = ${COURSE} and s.status = 'InvalidFormat' and not s.is_reference
         and s.created_at >= ${RECENT}
         and s.id = (select later.id from submissions later
                     where later.assignment_id = s.assignment_id and later.course_id = s.course_id
                       and later.user_id = s.user_id and not later.is_reference
                     order by later.created_at desc, later.id desc
                     limit 1)
       order by s.created_at desc
       limit ${CAP})
    ) sb
    join assignments a on a.id = sb.assignment_id
    join users u on u.id = sb.user_id
    order by sb.status = 'InvalidFormat', sb.created_at desc, sb.id desc
    limit ${LIMIT}`,
  GradingRow,
);

/**
 * Submissions that need an editor: queued or executing for more than OVERVIEW_STUCK_MINUTES, failed for
 * a reason not the student's (InternalError), or unreadable as given (InvalidFormat) within
 * OVERVIEW_WINDOW_DAYS and still the student's latest for the assignment. Waiting and failed ones first, then newest first.
 */
export async function listGradingAttention(db: Executor, s: EditorScope): Promise<Counted<GradingRow>> {
  return counted(await gradingAttention(db, { courseId: s.courseId }));
}

const ClosingRow = z.object({
  kind: z.enum(['assignment', 'quiz']),
  assignment_id: int.nullable(),
  quiz_id: int.nullable(),
  quiz_course_id: int.nullable(),
  title: text,
  opens_at: date,
  due_at: date,
  late_until: date.nullable(),
  submitted_students: int,
  total: int,
});
export type ClosingRow = z.infer<typeof ClosingRow>;

/**
 * Students of the course who handed `d`'s assignment in at least once: a semi-join of course_students
 * with submissions_handed_in_idx, both read from the index alone (no count(distinct), which sorts).
 */
const HANDED_IN = sql`(
  select count(*) from course_students cs
  where cs.course_id = d.course_id
    and exists (select 1 from submissions sb
                where sb.assignment_id = d.assignment_id and sb.course_id = d.course_id
                  and sb.user_id = cs.user_id and not sb.is_reference)
)::int`;

const closing = prepared(
  'overview_closing',
  sql`
    select x.*, count(*) over ()::int as total
    from (
      select 'assignment' as kind, d.assignment_id, null::int as quiz_id, null::int as quiz_course_id,
             a.title, d.opens_at, d.due_at, d.late_until, ${HANDED_IN} as submitted_students
      from assignment_courses d
      join assignments a on a.id = d.assignment_id
      where d.course_id = ${COURSE} and d.due_at >= ${NOW} and d.due_at < ${daysFromNow(OVERVIEW_CLOSING_DAYS)}
      union all
      select 'quiz', null, q.id, qc.id, q.title, qc.opens_at, qc.closes_at, null,
             (select count(*) from quiz_submissions qs
              join course_students cs on cs.course_id = qc.course_id and cs.user_id = qs.user_id
              where qs.quiz_course_id = qc.id and qs.submitted_at is not null)::int
      from quiz_courses qc
      join quizzes q on q.id = qc.quiz_id
      where qc.course_id = ${COURSE} and qc.closes_at >= ${NOW}
        and qc.closes_at < ${daysFromNow(OVERVIEW_CLOSING_DAYS)}
    ) x
    order by x.due_at, x.title
    limit ${LIMIT}`,
  ClosingRow,
);

/**
 * Assignments due and quizzes closing within OVERVIEW_CLOSING_DAYS, soonest first, with how many students
 * of the course handed in at least once (quizzes: submitted).
 */
export async function listClosing(db: Executor, s: EditorScope): Promise<Counted<ClosingRow>> {
  return counted(await closing(db, { courseId: s.courseId }));
}

const MissingRow = z.object({
  assignment_id: int,
  title: text,
  due_at: date,
  late_until: date.nullable(),
  missing_count: int,
  students: z.array(z.object({ id: int, email: text, first_name: text, last_name: text })),
  total: int,
});
export type MissingRow = z.infer<typeof MissingRow>;

// Per assignment of the window: the course's students without a submission, found by an anti-join of
// course_students (its primary key) against submissions_handed_in_idx (both read from the index alone,
// in user order); only those few are joined to users and numbered by name.
const missing = prepared(
  'overview_missing',
  sql`
    select d.assignment_id, a.title, d.due_at, d.late_until, m.missing_count, m.students,
           count(*) over ()::int as total
    from assignment_courses d
    join assignments a on a.id = d.assignment_id
    cross join lateral (
      select count(*)::int as missing_count,
             coalesce(json_agg(json_build_object('id', x.id, 'email', x.email, 'first_name', x.first_name,
                                                 'last_name', x.last_name) order by x.n)
                        filter (where x.n <= ${sql.raw(String(OVERVIEW_MISSING_NAMES))}), '[]'::json) as students
      from (
        select u.id, u.email, u.first_name, u.last_name,
               row_number() over (order by u.last_name, u.first_name, u.email, u.id) as n
        from course_students cs
        join users u on u.id = cs.user_id
        where cs.course_id = d.course_id
          and not exists (select 1 from submissions sb
                          where sb.assignment_id = d.assignment_id and sb.course_id = d.course_id
                            and sb.user_id = cs.user_id and not sb.is_reference)
          -- Not missing yet: a student whose own due date (an extension) has not passed.
          and not exists (select 1 from assignment_extensions e
                          where e.assignment_id = d.assignment_id and e.course_id = d.course_id
                            and e.user_id = cs.user_id and e.due_at >= ${NOW})
      ) x
    ) m
    where d.course_id = ${COURSE} and d.due_at < ${NOW} and d.due_at >= ${daysFromNow(-OVERVIEW_MISSING_DAYS)}
      and m.missing_count > 0
    order by d.due_at desc, d.assignment_id
    limit ${LIMIT}`,
  MissingRow,
);

/**
 * Assignments that fell due within the last OVERVIEW_MISSING_DAYS and that some students of the course have not
 * handed in at all, the latest first: how many, and the first few by name.
 */
export async function listMissing(db: Executor, s: EditorScope): Promise<Counted<MissingRow>> {
  return counted(await missing(db, { courseId: s.courseId }));
}

const QuestionRow = z.object({
  id: int,
  title: text,
  comment_count: int,
  created_at: date,
  ...AuthorFields,
  total: int,
});
export type QuestionRow = z.infer<typeof QuestionRow>;

// Topics newest first, walking forum_records_parent_idx backwards (it holds every topic, parent_id
// NULL, by creation time: the ORDER BY names its columns so the walk needs no sort) and stopping at the
// cap, so a busy forum costs about what a quiet one does. Who answers for the course (its editors and
// staff, users_staff_idx) is read once, as an array: each topic's comments are only compared with it
// (as a set to join with, PostgreSQL joined every comment those people ever wrote instead).
const unansweredQuestions = prepared(
  'overview_unanswered_questions',
  sql`
    with answerers as materialized (
      select array(select ce.user_id from course_editors ce where ce.course_id = ${COURSE}
                   union
                   select su.id from users su where su.is_staff) as ids
    )
    select t.id, t.title, t.comment_count, t.created_at, ${AUTHOR_COLUMNS}, count(*) over ()::int as total
    from (
      select t.id, t.title, t.comment_count, t.created_at, t.author_id
      from forum_records t
      cross join answerers a
      where t.parent_id is null and t.created_at >= ${daysFromNow(-OVERVIEW_QUESTION_DAYS)}
        and t.course_id = ${COURSE} and t.published_at is not null and not t.is_announcement
        and t.author_id <> all(a.ids)
        and not exists (select 1 from forum_records c where c.parent_id = t.id and c.author_id = any(a.ids))
      order by t.parent_id desc nulls first, t.created_at desc, t.id desc
      limit ${CAP}
    ) t
    join users u on u.id = t.author_id
    order by t.created_at desc, t.id desc
    limit ${LIMIT}`,
  QuestionRow,
);

/**
 * Published discussions of the last OVERVIEW_QUESTION_DAYS started by someone who is neither an editor of the course nor
 * staff, without a comment by an editor of the course or staff: newest first.
 */
export async function listUnansweredQuestions(db: Executor, s: EditorScope): Promise<Counted<QuestionRow>> {
  return counted(await unansweredQuestions(db, { courseId: s.courseId }));
}

const CourseCountsRow = z.object({ student_count: int, live_sessions: int, open_regrades: int });

const courseCounts = prepared(
  'overview_course_counts',
  sql`
    select coalesce((select c.student_count from courses c where c.id = ${COURSE}), 0) as student_count,
           (select count(*) from workbook_sessions ws
            where ws.course_id = ${COURSE} and ws.status = 'live' and ws.expires_at > ${NOW})::int
             as live_sessions,
           -- regrade_requests_course_idx: the course's open ones are one range of it.
           (select count(*) from regrade_requests rr
            where rr.course_id = ${COURSE} and rr.status = 'open')::int as open_regrades`,
  CourseCountsRow,
);

/** How many students the course has, its live workbook sessions now and its open regrade requests. */
export async function findCourseCounts(db: Executor, s: EditorScope) {
  const [row] = await courseCounts(db, { courseId: s.courseId });
  return {
    studentCount: row?.student_count ?? 0,
    liveSessions: row?.live_sessions ?? 0,
    openRegrades: row?.open_regrades ?? 0,
  };
}
