import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { NotificationFacts, NotificationKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';

/**
 * Who hears of an event: a course's students or editors, named people, or the editors of a course that
 * has them hear of new members (`courses.notify_editors_of_members`), the new member left out.
 */
export type Recipients =
  | { students: number }
  | { editors: number }
  | { users: number[] }
  | { editorsOfNewMember: number; member: number };

export interface NotificationEvent {
  kind: NotificationKind;
  /** What happened, the same for every recipient: a second insert of the same key adds nothing. */
  key: string;
  courseId: number | null;
  link: string;
  facts: NotificationFacts;
  to: Recipients;
  /** Who did it: named in the facts (`actor`), and never told of their own act. */
  actorId?: number | null;
  /** The e-mail waits this long (a graded submission: its author may be looking at it). */
  mailAfterSeconds?: number;
}

/** One event as a row of the statement's `jsonb_to_recordset`: the recipients as columns, unused ones null. */
function eventRow(event: NotificationEvent) {
  const to = event.to;
  return {
    kind: event.kind,
    key: event.key,
    course_id: event.courseId,
    link: event.link,
    facts: event.facts,
    actor_id: event.actorId ?? null,
    mail_after: event.mailAfterSeconds ?? 0,
    students: 'students' in to ? to.students : null,
    editors: 'editors' in to ? to.editors : null,
    members_of: 'editorsOfNewMember' in to ? to.editorsOfNewMember : null,
    member: 'editorsOfNewMember' in to ? to.member : null,
    users: 'users' in to ? to.users : null,
  };
}

/**
 * The fan-out: one INSERT … SELECT for every recipient of every event given (2,000 students are one
 * statement, and so are 300 released reviews of 300 students), each person once per event (ON CONFLICT
 * on `(user_id, event_key)`). Returns how many rows it added.
 */
export async function insertNotifications(
  db: Executor,
  events: readonly NotificationEvent[],
): Promise<number> {
  const rows = events.filter((event) => !('users' in event.to) || event.to.users.length > 0).map(eventRow);
  if (rows.length === 0) return 0;
  const result = await db.execute(sql`
    WITH e AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS e(kind text, key text, course_id int, link text, facts jsonb, actor_id int, mail_after float8,
             students int, editors int, members_of int, member int, users int[])
    ), added AS (
    INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts, mail_after)
    SELECT r.user_id, e.course_id, e.kind, e.key, e.link,
           e.facts || CASE WHEN a.id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('actor',
             jsonb_build_object('first_name', a.first_name, 'last_name', a.last_name)) END,
           now() + make_interval(secs => e.mail_after)
      FROM e
      CROSS JOIN LATERAL (
        SELECT cs.user_id FROM course_students cs WHERE cs.course_id = e.students
        UNION SELECT ce.user_id FROM course_editors ce WHERE ce.course_id = e.editors
        UNION SELECT ce.user_id FROM course_editors ce
                JOIN courses c ON c.id = ce.course_id AND c.notify_editors_of_members
               WHERE ce.course_id = e.members_of AND ce.user_id IS DISTINCT FROM e.member
        UNION SELECT unnest(e.users)
      ) AS r(user_id)
      JOIN users u ON u.id = r.user_id AND u.is_active
      LEFT JOIN users a ON a.id = e.actor_id
     WHERE r.user_id IS DISTINCT FROM e.actor_id
    ON CONFLICT (user_id, event_key) DO NOTHING
    RETURNING 1)
    SELECT count(*)::int AS added FROM added`);
  return Added.parse(result).rows[0]?.added ?? 0;
}

const Added = z.object({ rows: z.array(z.object({ added: z.number() })) });
