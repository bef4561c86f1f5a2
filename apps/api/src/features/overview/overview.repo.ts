import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  EVENT_KINDS,
  OVERVIEW_CLOSING_DAYS,
  OVERVIEW_COUNT_CAP,
  OVERVIEW_MISSING_DAYS,
  OVERVIEW_MISSING_NAMES,
  OVERVIEW_QUESTION_DAYS,
  OVERVIEW_SECTION_LIMIT,
  OVERVIEW_STUCK_MINUTES,
  OVERVIEW_WINDOW_DAYS,
  SUBMISSION_STATUSES,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { statementCache } from '../../db/prepared.ts';

/*
 * What the course home reads (docs/course-home.md). Like the calendar, the home is a read-only view
 * across features: each section is one statement over the tables of assignments, submissions, quizzes,
 * the forum, events and workbooks, at most OVERVIEW_SECTION_LIMIT rows, counted in the same statement,
 * so a page costs a fixed handful of queries whatever the course holds. Each statement is prepared once
 * per connection (planning cost as much as running most of them). The visibility rules of those
 * features are repeated here and tested in overview.test.ts: students see assignments once opened,
 * quizzes also before, forum topics once published; editors' reference runs never count.
 */

const LIMIT = sql.raw(String(OVERVIEW_SECTION_LIMIT));
const CAP = sql.raw(String(OVERVIEW_COUNT_CAP));

const int = z.coerce.number().int();
const date = z.coerce.date();
const text = z.string();

/** The placeholders of the statements, filled from the values each call gives. */
const COURSE = sql`${sql.placeholder('courseId')}::int`;
const USER = sql`${sql.placeholder('userId')}::int`;
type Values = Record<string, number | string>;

/*
 * Every window is written into its statement relative to the database's now(), not bound: a bound
 * moment made PostgreSQL plan some statements anew on every call (their plan for one moment looked
 * cheaper than one plan for any), which cost as much as running them. So each keeps one plan.
 */
const NOW = sql.raw('now()');
const daysFromNow = (days: number) => sql.raw(`(now() + interval '${days} days')`);
const minutesFromNow = (minutes: number) => sql.raw(`(now() + interval '${minutes} minutes')`);
/** The end of "soon" for a student. */
const SOON = daysFromNow(OVERVIEW_WINDOW_DAYS);
/** As far back as a student's replies and the InvalidFormat submissions editors are shown go. */
const RECENT = daysFromNow(-OVERVIEW_WINDOW_DAYS);

const dialect = new PgDialect();

/** `query` prepared under `name` on each executor; each call runs it and checks its rows with `row`. */
function prepared<T extends z.ZodType>(name: string, query: SQL, row: T) {
  const statement = statementCache(
    () => name,
    (db: Executor) =>
      db._.session.prepareQuery<{ execute: unknown; all: unknown; values: unknown }>(
        dialect.sqlToQuery(query),
        undefined,
        name,
        false,
      ),
  );
  const Rows = z.object({ rows: z.array(row) });
  return async (db: Executor, values: Values): Promise<z.infer<T>[]> =>
    Rows.parse(await statement(db, null).execute(values)).rows;
}

/** A first batch of rows and how many there are in all (`total`, the same on every row), up to the cap. */
export interface Counted<T> {
  count: number;
  rows: T[];
}

function counted<T extends { total: number }>(rows: T[]): Counted<T> {
  return { count: Math.min(rows[0]?.total ?? 0, OVERVIEW_COUNT_CAP), rows };
}

/** Who wrote something (users `u`), as toForumAuthor needs it. */
const AUTHOR_COLUMNS = sql`
  u.id as author_id, u.first_name as author_first_name, u.last_name as author_last_name,
  u.email as author_email, u.is_staff as author_is_staff,
  exists (select 1 from course_editors ce where ce.course_id = ${COURSE} and ce.user_id = u.id) as author_is_editor`;
const AuthorFields = {
  author_id: int,
  author_first_name: text,
  author_last_name: text,
  author_email: text,
  author_is_staff: z.boolean(),
  author_is_editor: z.boolean(),
};
export type AuthorFields = z.infer<z.ZodObject<typeof AuthorFields>>;

/* ─── A student's view ───────────────────────────────────────────────────────────────────────── */

export interface StudentScope {
  courseId: number;
  userId: number;
}

const DueAssignmentRow = z.object({
  assignment_id: int,
  title: text,
  opens_at: date,
  due_at: date,
  late_until: date.nullable(),
  submission_id: int.nullable(),
  status: z.enum(SUBMISSION_STATUSES).nullable(),
  score: int.nullable(),
  max_score: int.nullable(),
  total: int,
});
export type DueAssignmentRow = z.infer<typeof DueAssignmentRow>;

const dueAssignments = prepared(
  'overview_due_assignments',
  sql`
    select a.id as assignment_id, a.title, ac.opens_at, ac.due_at, ac.late_until,
           mine.id as submission_id, mine.status, mine.score, mine.max_score, count(*) over ()::int as total
    from assignment_courses ac
    join assignments a on a.id = ac.assignment_id
    left join lateral (
      select sb.id, sb.status, sb.score, sb.max_score
      from submissions sb
      where sb.assignment_id = ac.assignment_id and sb.course_id = ac.course_id and sb.user_id = ${USER}
        and not sb.is_reference and sb.status not in ('Pending', 'Canceled')
      order by sb.is_final desc, sb.status in ('Completed', 'InvalidFormat') desc, sb.score desc nulls last,
               sb.created_at desc, sb.id desc
      limit 1
    ) mine on true
    where ac.course_id = ${COURSE} and ac.opens_at <= ${NOW}
      and ((ac.due_at >= ${NOW} and ac.due_at < ${SOON}) or (ac.due_at < ${NOW} and ac.late_until > ${NOW}))
    order by ac.due_at, a.id
    limit ${LIMIT}`,
  DueAssignmentRow,
);

/**
 * Opened assignments due within OVERVIEW_WINDOW_DAYS, or past due and still accepting late work, soonest
 * first, each with the submission that decides the student's standing: the final one, else the best
 * graded, else the latest handed in (Pending drafts and Canceled ones are not handed in).
 */
export async function listDueAssignments(db: Executor, s: StudentScope): Promise<Counted<DueAssignmentRow>> {
  return counted(await dueAssignments(db, { courseId: s.courseId, userId: s.userId }));
}

const StudentQuizRow = z.object({
  quiz_id: int,
  quiz_course_id: int,
  title: text,
  opens_at: date,
  closes_at: date,
  time_limit_minutes: int.nullable(),
  scores_visible_at: date.nullable(),
  attempt_id: int.nullable(),
  started_at: date.nullable(),
  submitted_at: date.nullable(),
  score: int.nullable(),
  max_score: int.nullable(),
});
export type StudentQuizRow = z.infer<typeof StudentQuizRow>;

const studentQuizzes = prepared(
  'overview_student_quizzes',
  sql`
    select q.id as quiz_id, qc.id as quiz_course_id, q.title, qc.opens_at, qc.closes_at, qc.time_limit_minutes,
           qc.scores_visible_at, qs.id as attempt_id, qs.started_at, qs.submitted_at, qs.score, qs.max_score
    from quiz_courses qc
    join quizzes q on q.id = qc.quiz_id
    left join quiz_submissions qs on qs.quiz_course_id = qc.id and qs.user_id = ${USER}
    where qc.course_id = ${COURSE} and qc.closes_at >= ${NOW} and qc.opens_at < ${SOON}
    order by qc.closes_at, qc.id
    limit ${CAP}`,
  StudentQuizRow,
);

/** Quizzes not closed yet that open within the window (at most the cap), closing soonest first, with the attempt. */
export async function listStudentQuizzes(db: Executor, s: StudentScope): Promise<StudentQuizRow[]> {
  return studentQuizzes(db, { courseId: s.courseId, userId: s.userId });
}

const AnnouncementRow = z.object({
  id: int,
  title: text,
  pinned: z.boolean(),
  published_at: date,
  ...AuthorFields,
  total: int,
});
export type AnnouncementRow = z.infer<typeof AnnouncementRow>;

const unreadAnnouncements = prepared(
  'overview_unread_announcements',
  sql`
    select r.id, r.title, r.pinned, r.published_at, ${AUTHOR_COLUMNS}, count(*) over ()::int as total
    from (
      select r.id, r.title, r.pinned, r.published_at, r.created_at, r.author_id
      from forum_records r
      where r.course_id = ${COURSE} and r.parent_id is null and r.published_at is not null and r.is_announcement
        and not exists (select 1 from forum_reads x where x.record_id = r.id and x.user_id = ${USER})
      order by r.pinned desc, r.created_at desc, r.id desc
      limit ${CAP}
    ) r
    join users u on u.id = r.author_id
    order by r.pinned desc, r.created_at desc, r.id desc
    limit ${LIMIT}`,
  AnnouncementRow,
);

/**
 * Published announcements the student has not read, pinned first and then newest first, as the forum
 * lists them: forum_records_announcements_idx in its order, stopping at the cap.
 */
export async function listUnreadAnnouncements(
  db: Executor,
  s: Pick<StudentScope, 'courseId' | 'userId'>,
): Promise<Counted<AnnouncementRow>> {
  return counted(await unreadAnnouncements(db, { courseId: s.courseId, userId: s.userId }));
}

const ReplyRow = z.object({
  topic_id: int,
  topic_title: text,
  reply_count: int,
  latest_reply_at: date,
  ...AuthorFields,
  total: int,
});
export type ReplyRow = z.infer<typeof ReplyRow>;

const replies = prepared(
  'overview_replies',
  sql`
    with mine as (
      select coalesce(r.parent_id, r.id) as topic_id, max(r.created_at) as last_post
      from forum_records r
      where r.author_id = ${USER} and r.course_id = ${COURSE}
      group by 1
    ), replies as (
      select t.id as topic_id, t.title as topic_title, count(*)::int as reply_count,
             max(c.created_at) as latest_reply_at,
             (array_agg(c.author_id order by c.created_at desc, c.id desc))[1] as latest_author
      from mine m
      join forum_records t on t.id = m.topic_id and t.published_at is not null
      join forum_records c on c.parent_id = t.id and c.author_id <> ${USER}
        and c.created_at > m.last_post and c.created_at > ${RECENT}
      group by t.id, t.title
    )
    select p.topic_id, p.topic_title, p.reply_count, p.latest_reply_at, ${AUTHOR_COLUMNS},
           count(*) over ()::int as total
    from replies p
    join users u on u.id = p.latest_author
    order by p.latest_reply_at desc, p.topic_id desc
    limit ${LIMIT}`,
  ReplyRow,
);

/**
 * Topics the student started or commented in where others commented after the student's own latest
 * post there (within OVERVIEW_WINDOW_DAYS), the most recent reply first: one row per topic.
 */
export async function listReplies(db: Executor, s: StudentScope): Promise<Counted<ReplyRow>> {
  return counted(await replies(db, { courseId: s.courseId, userId: s.userId }));
}

const ResultRow = z.object({
  kind: z.enum(['assignment', 'quiz']),
  assignment_id: int.nullable(),
  quiz_id: int.nullable(),
  quiz_course_id: int.nullable(),
  title: text,
  submission_id: int,
  status: z.enum(SUBMISSION_STATUSES).nullable(),
  score: int.nullable(),
  max_score: int.nullable(),
  result_at: date,
  total: int,
});
export type ResultRow = z.infer<typeof ResultRow>;

const latestResults = prepared(
  'overview_latest_results',
  sql`
    select x.*, count(*) over ()::int as total
    from (
      (select distinct on (sb.assignment_id)
              'assignment' as kind, sb.assignment_id, null::int as quiz_id, null::int as quiz_course_id,
              a.title, sb.id as submission_id, sb.status, sb.score, sb.max_score, sb.graded_at as result_at
       from submissions sb
       join assignments a on a.id = sb.assignment_id
       where sb.user_id = ${USER} and sb.course_id = ${COURSE} and not sb.is_reference
         and sb.graded_at is not null and sb.status in ('Completed', 'InvalidFormat')
       order by sb.assignment_id, sb.graded_at desc, sb.id desc)
      union all
      select 'quiz', null, q.id, qc.id, q.title, qs.id, null, qs.score, qs.max_score,
             greatest(qs.submitted_at, qc.scores_visible_at)
      from quiz_submissions qs
      join quiz_courses qc on qc.id = qs.quiz_course_id
      join quizzes q on q.id = qc.quiz_id
      where qs.user_id = ${USER} and qc.course_id = ${COURSE} and qs.submitted_at is not null
        and qc.scores_visible_at <= ${NOW}
    ) x
    order by x.result_at desc, x.submission_id desc
    limit ${LIMIT}`,
  ResultRow,
);

/**
 * The latest graded submission per assignment (Completed or InvalidFormat) and the quiz results whose
 * scores are shown by now, newest first.
 */
export async function listLatestResults(db: Executor, s: StudentScope): Promise<Counted<ResultRow>> {
  return counted(await latestResults(db, { courseId: s.courseId, userId: s.userId }));
}

const EventRow = z.object({
  id: int,
  title: text,
  kind: z.enum(EVENT_KINDS),
  starts_at: date,
  ends_at: date,
  all_day: z.boolean(),
  location: text,
  total: int,
});
export type EventRow = z.infer<typeof EventRow>;

const upcomingEvents = prepared(
  'overview_upcoming_events',
  sql`
    select e.id, e.title, e.kind, e.starts_at, e.ends_at, e.all_day, e.location, count(*) over ()::int as total
    from events e
    where e.course_id = ${COURSE} and e.starts_at < ${SOON} and e.ends_at >= ${NOW}
    order by e.starts_at, e.id
    limit ${LIMIT}`,
  EventRow,
);

/** Events of the course not over yet that start within the window, soonest first. */
export async function listUpcomingEvents(
  db: Executor,
  s: Pick<StudentScope, 'courseId'>,
): Promise<Counted<EventRow>> {
  return counted(await upcomingEvents(db, { courseId: s.courseId }));
}

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

const CourseCountsRow = z.object({ student_count: int, live_sessions: int });

const courseCounts = prepared(
  'overview_course_counts',
  sql`
    select (select count(*) from course_students cs where cs.course_id = ${COURSE})::int as student_count,
           (select count(*) from workbook_sessions ws
            where ws.course_id = ${COURSE} and ws.status = 'live' and ws.expires_at > ${NOW})::int
             as live_sessions`,
  CourseCountsRow,
);

/** How many students the course has, and its live workbook sessions now. */
export async function findCourseCounts(db: Executor, s: EditorScope) {
  const [row] = await courseCounts(db, { courseId: s.courseId });
  return { studentCount: row?.student_count ?? 0, liveSessions: row?.live_sessions ?? 0 };
}
