import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { NotificationFacts, NotificationKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';

/** Who hears of an event: a course's students or editors, or named people. */
export type Recipients = { students: number } | { editors: number } | { users: number[] };

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

function recipientsSql(to: Recipients): SQL {
  if ('students' in to) return sql`SELECT user_id FROM course_students WHERE course_id = ${to.students}`;
  if ('editors' in to) return sql`SELECT user_id FROM course_editors WHERE course_id = ${to.editors}`;
  return sql`SELECT unnest(${`{${to.users.join(',')}}`}::int[])`;
}

/**
 * The fan-out: one INSERT … SELECT for every recipient (2,000 students are one statement), each person
 * once per event (ON CONFLICT on `(user_id, event_key)`). Returns how many rows it added.
 */
export async function insertNotifications(db: Executor, event: NotificationEvent): Promise<number> {
  if ('users' in event.to && event.to.users.length === 0) return 0;
  const result = await db.execute(sql`
    WITH added AS (
    INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts, mail_after)
    SELECT DISTINCT r.user_id, ${event.courseId}::int, ${event.kind}, ${event.key}, ${event.link},
           ${JSON.stringify(event.facts)}::jsonb || coalesce((
             SELECT jsonb_build_object('actor', jsonb_build_object('first_name', a.first_name, 'last_name', a.last_name))
               FROM users a WHERE a.id = ${event.actorId ?? null}::int), '{}'::jsonb),
           now() + make_interval(secs => ${event.mailAfterSeconds ?? 0})
      FROM (${recipientsSql(event.to)}) AS r(user_id)
      JOIN users u ON u.id = r.user_id AND u.is_active
     WHERE r.user_id IS DISTINCT FROM ${event.actorId ?? null}::int
    ON CONFLICT (user_id, event_key) DO NOTHING
    RETURNING 1)
    SELECT count(*)::int AS added FROM added`);
  return Added.parse(result).rows[0]?.added ?? 0;
}

const Added = z.object({ rows: z.array(z.object({ added: z.number() })) });
