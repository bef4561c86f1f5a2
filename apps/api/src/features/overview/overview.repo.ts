import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  EVENT_KINDS,
  OVERVIEW_COUNT_CAP,
  OVERVIEW_SECTION_LIMIT,
  OVERVIEW_WINDOW_DAYS,
  SUBMISSION_STATUSES,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { statementCache } from '../../db/prepared.ts';
import { countedScore, reviewedMax, reviewJoins } from '../../db/review-score.ts';

/*
 * What the course home reads (docs/course-home.md). Like the calendar, the home is a read-only view
 * across features: each section is one statement over the tables of assignments, submissions, quizzes,
 * the forum, events and workbooks, at most OVERVIEW_SECTION_LIMIT rows, counted in the same statement,
 * so a page costs a fixed handful of queries whatever the course holds. Each statement is prepared once
 * per connection (planning cost as much as running most of them). The visibility rules of those
 * features are repeated here and tested in overview.test.ts: students see assignments once opened,
 * quizzes also before, forum topics once published; editors' reference runs never count.
 */

export const LIMIT = sql.raw(String(OVERVIEW_SECTION_LIMIT));
export const CAP = sql.raw(String(OVERVIEW_COUNT_CAP));

export const int = z.coerce.number().int();
export const date = z.coerce.date();
export const text = z.string();

/** The placeholders of the statements, filled from the values each call gives. */
export const COURSE = sql`${sql.placeholder('courseId')}::int`;
export const USER = sql`${sql.placeholder('userId')}::int`;
type Values = Record<string, number | string>;

/*
 * Every window is written into its statement relative to the database's now(), not bound: a bound
 * moment made PostgreSQL plan some statements anew on every call (their plan for one moment looked
 * cheaper than one plan for any), which cost as much as running them. So each keeps one plan.
 */
export const NOW = sql.raw('now()');
export const daysFromNow = (days: number) => sql.raw(`(now() + interval '${days} days')`);
export const minutesFromNow = (minutes: number) => sql.raw(`(now() + interval '${minutes} minutes')`);
/** The end of "soon" for a student. */
const SOON = daysFromNow(OVERVIEW_WINDOW_DAYS);
/** As far back as a student's replies and the InvalidFormat submissions editors are shown go. */
export const RECENT = daysFromNow(-OVERVIEW_WINDOW_DAYS);

const dialect = new PgDialect();

/** `query` prepared under `name` on each executor; each call runs it and checks its rows with `row`. */
export function prepared<T extends z.ZodType>(name: string, query: SQL, row: T) {
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

export function counted<T extends { total: number }>(rows: T[]): Counted<T> {
  return { count: Math.min(rows[0]?.total ?? 0, OVERVIEW_COUNT_CAP), rows };
}

/** Who wrote something (users `u`), as toForumAuthor needs it. */
export const AUTHOR_COLUMNS = sql`
  u.id as author_id, u.first_name as author_first_name, u.last_name as author_last_name,
  u.email as author_email, u.is_staff as author_is_staff,
  exists (select 1 from course_editors ce where ce.course_id = ${COURSE} and ce.user_id = u.id) as author_is_editor`;
export const AuthorFields = {
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
  score: z.number().nullable(),
  max_score: z.number().nullable(),
  total: int,
});
export type DueAssignmentRow = z.infer<typeof DueAssignmentRow>;

const dueAssignments = prepared(
  'overview_due_assignments',
  sql`
    select a.id as assignment_id, a.title, d.opens_at, d.due_at, d.late_until,
           mine.id as submission_id, mine.status, mine.score, mine.max_score, count(*) over ()::int as total
    from (
      -- The student's own dates: an extension's, else the course's (docs/extensions.md).
      select ac.assignment_id, ac.course_id, ac.opens_at, coalesce(x.due_at, ac.due_at) as due_at,
             case when x.user_id is null then ac.late_until else x.late_until end as late_until
      from assignment_courses ac
      left join assignment_extensions x
        on x.assignment_id = ac.assignment_id and x.course_id = ac.course_id and x.user_id = ${USER}
      where ac.course_id = ${COURSE} and ac.opens_at <= ${NOW}
    ) d
    join assignments a on a.id = d.assignment_id
    left join lateral (
      -- The counted score, a released review's total where there is one (db/review-score.ts).
      select s.id, s.status, ${countedScore} as score,
             case when s.max_score is null and rv.id is null then null else ${reviewedMax} end as max_score
      from submissions s ${reviewJoins(true)}
      where s.assignment_id = d.assignment_id and s.course_id = d.course_id and s.user_id = ${USER}
        and not s.is_reference and s.status not in ('Pending', 'Canceled')
      order by s.is_final desc, s.status in ('Completed', 'InvalidFormat') desc, ${countedScore} desc nulls last,
               s.created_at desc, s.id desc
      limit 1
    ) mine on true
    where (d.due_at >= ${NOW} and d.due_at < ${SOON}) or (d.due_at < ${NOW} and d.late_until > ${NOW})
    order by d.due_at, a.id
    limit ${LIMIT}`,
  DueAssignmentRow,
);

/**
 * Opened assignments due within OVERVIEW_WINDOW_DAYS, or past due and still accepting late work, soonest
 * first, each with the submission that decides the student's standing: the final one, else the best
 * graded, else the latest handed in (Pending drafts and Canceled ones are not handed in). Its score is
 * the counted one, as the gradebook's: with its review once released, the autograder's weighed alike.
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
    select q.id as quiz_id, qc.id as quiz_course_id, q.title, qc.opens_at,
           coalesce(x.closes_at, qc.closes_at) as closes_at,
           qc.time_limit_minutes + coalesce(x.extra_minutes, 0) as time_limit_minutes,
           qc.scores_visible_at, qs.id as attempt_id, qs.started_at, qs.submitted_at, qs.score, qs.max_score
    from quiz_courses qc
    join quizzes q on q.id = qc.quiz_id
    -- The student's own window: an extension's, else the course's (docs/extensions.md).
    left join quiz_extensions x on x.quiz_course_id = qc.id and x.user_id = ${USER}
    left join quiz_submissions qs on qs.quiz_course_id = qc.id and qs.user_id = ${USER}
    where qc.course_id = ${COURSE} and coalesce(x.closes_at, qc.closes_at) >= ${NOW} and qc.opens_at < ${SOON}
    order by coalesce(x.closes_at, qc.closes_at), qc.id
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
