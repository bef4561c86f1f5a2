import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import {
  ownAssignmentDates,
  ownAssignmentExtension,
  ownAssignmentExtensionOn,
  ownQuizExtension,
  ownQuizExtensionOn,
  ownQuizWindow,
} from '../../db/own-dates.ts';
import { assignmentExtensions, quizExtensions } from '../../db/schema-extensions.ts';

/*
 * The scheduled reminders (docs/notifications.md, "Reminders"): each is one INSERT … SELECT over every
 * course at once, with the row shape of the fan-out (notify.repo.ts) and its ON CONFLICT on
 * `(user_id, event_key)`, so a run repeated, or run by two instances at the same moment, adds nothing.
 * A person's dates are their own (db/own-dates.ts: extensions included). The links are the shapes of
 * `links` in notify.service.ts, written in SQL (a repo imports no service; the tests compare them).
 */

/** How far ahead a deadline is reminded of. */
const AHEAD = sql`interval '24 hours'`;
/** How far back an opening still tells (a first run, or a run after a long stop, tells of no older ones). */
const OPENED_WITHIN = sql`interval '24 hours'`;

/** A moment as JavaScript's `toISOString()` writes it: the keys and facts compare as text. */
const iso = (moment: SQL) => sql`to_char(${moment} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const inWindow = (moment: SQL) => sql`(${moment} > now() AND ${moment} <= now() + ${AHEAD})`;

const Added = z.object({ rows: z.array(z.object({ added: z.number() })) });

/**
 * deadline_soon: every student whose own due date of an open assignment, or own closing time of an open
 * quiz, falls within the next 24 hours and who has not handed it in (an assignment: no submission; a
 * quiz: no submitted attempt). One row per student, item and deadline: a moved deadline reminds again.
 * Only items with something due in the window are joined to their students (the course's date or an
 * extension's), so the statement costs what is due, not the size of the installation.
 */
export async function insertDeadlineReminders(db: Executor): Promise<number> {
  const assignmentDue = sql`${ownAssignmentDates.dueAt}`;
  const quizCloses = sql`${ownQuizWindow.closesAt}`;
  const result = await db.execute(sql`
    WITH due_assignments AS (
      SELECT ac.assignment_id, ac.course_id FROM assignment_courses ac WHERE ${inWindow(sql`ac.due_at`)}
      UNION
      SELECT x.assignment_id, x.course_id FROM assignment_extensions x WHERE ${inWindow(sql`x.due_at`)}
    ), due_quizzes AS (
      SELECT qc.id FROM quiz_courses qc WHERE ${inWindow(sql`qc.closes_at`)}
      UNION
      SELECT x.quiz_course_id FROM quiz_extensions x WHERE ${inWindow(sql`x.closes_at`)}
    ), reminders AS (
      SELECT cs.user_id, assignment_courses.course_id,
             'deadline:assignment:' || assignment_courses.assignment_id || ':' || assignment_courses.course_id
               || ':' || ${iso(assignmentDue)} AS event_key,
             '/course/' || assignment_courses.course_id || '/assignment/' || assignment_courses.assignment_id AS link,
             jsonb_build_object('title', a.title, 'due_at', ${iso(assignmentDue)}) AS facts
        FROM due_assignments d
        JOIN assignment_courses
          ON assignment_courses.assignment_id = d.assignment_id AND assignment_courses.course_id = d.course_id
        JOIN assignments a ON a.id = assignment_courses.assignment_id
        JOIN course_students cs ON cs.course_id = assignment_courses.course_id
        LEFT JOIN ${assignmentExtensions} AS ${ownAssignmentExtension}
          ON ${ownAssignmentExtensionOn(sql`cs.user_id`)}
       WHERE assignment_courses.opens_at <= now() AND ${inWindow(assignmentDue)}
         AND NOT EXISTS (SELECT 1 FROM submissions s
                          WHERE s.assignment_id = assignment_courses.assignment_id
                            AND s.course_id = assignment_courses.course_id
                            AND s.user_id = cs.user_id AND NOT s.is_reference)
      UNION ALL
      SELECT cs.user_id, quiz_courses.course_id,
             'deadline:quiz:' || quiz_courses.id || ':' || ${iso(quizCloses)},
             '/course/' || quiz_courses.course_id || '/quizzes/' || quiz_courses.quiz_id
               || '/quiz-courses/' || quiz_courses.id,
             jsonb_build_object('title', q.title, 'due_at', ${iso(quizCloses)})
        FROM due_quizzes d
        JOIN quiz_courses ON quiz_courses.id = d.id
        JOIN quizzes q ON q.id = quiz_courses.quiz_id
        JOIN course_students cs ON cs.course_id = quiz_courses.course_id
        LEFT JOIN ${quizExtensions} AS ${ownQuizExtension} ON ${ownQuizExtensionOn(sql`cs.user_id`)}
       WHERE quiz_courses.opens_at <= now() AND ${inWindow(quizCloses)}
         AND NOT EXISTS (SELECT 1 FROM quiz_submissions qs
                          WHERE qs.quiz_course_id = quiz_courses.id AND qs.user_id = cs.user_id
                            AND qs.submitted_at IS NOT NULL)
    ), added AS (
      INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts, mail_after)
      SELECT r.user_id, r.course_id, 'deadline_soon', r.event_key, r.link, r.facts, now()
        FROM reminders r JOIN users u ON u.id = r.user_id AND u.is_active
      ON CONFLICT (user_id, event_key) DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS added FROM added`);
  return Added.parse(result).rows[0]?.added ?? 0;
}

/**
 * quiz_opened: the students of every quiz whose opening time passed within the last 24 hours and that
 * has not closed for them, with their own closing time. Once per quiz and opening time: a quiz moved to
 * open later tells again when it does.
 */
export async function insertQuizOpenings(db: Executor): Promise<number> {
  const quizCloses = sql`${ownQuizWindow.closesAt}`;
  const result = await db.execute(sql`
    WITH added AS (
      INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts, mail_after)
      SELECT cs.user_id, quiz_courses.course_id, 'quiz_opened',
             'quiz_opened:' || quiz_courses.id || ':' || ${iso(sql`quiz_courses.opens_at`)},
             '/course/' || quiz_courses.course_id || '/quizzes/' || quiz_courses.quiz_id
               || '/quiz-courses/' || quiz_courses.id,
             jsonb_build_object('title', q.title, 'due_at', ${iso(quizCloses)}),
             now()
        FROM quiz_courses
        JOIN quizzes q ON q.id = quiz_courses.quiz_id
        JOIN course_students cs ON cs.course_id = quiz_courses.course_id
        JOIN users u ON u.id = cs.user_id AND u.is_active
        LEFT JOIN ${quizExtensions} AS ${ownQuizExtension} ON ${ownQuizExtensionOn(sql`cs.user_id`)}
       WHERE quiz_courses.opens_at <= now() AND quiz_courses.opens_at > now() - ${OPENED_WITHIN}
         AND ${quizCloses} > now()
      ON CONFLICT (user_id, event_key) DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS added FROM added`);
  return Added.parse(result).rows[0]?.added ?? 0;
}
